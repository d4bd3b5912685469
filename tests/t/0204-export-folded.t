#!/bin/sh
# export --format=folded: one "a;b;c value" line per call path; the
# values of the paths ending in a function add up to its self time (and
# with --value=calls to its calls); paths start at main.
. "$(dirname "$0")/lib.sh"

# leaf_sums FILE: per last frame, the sum of the values
leaf_sums() {
	awk '{ v = $NF; $NF = ""; sub(/ $/, ""); n = split($0, f, ";"); s[f[n]] += v }
		END { for (k in s) print k, s[k] }' "$1" | sort
}

plan 5
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record -o w.data -- ./work 20 >/dev/null 2>&1
"$CS" report -i w.data --json >r.json
"$CS" export -i w.data --format=folded >self.txt
ok $? "export writes folded stacks"
is "$(leaf_sums self.txt)" "$(jq -r '.functions[] | "\(.name) \(.self_ns)"' r.json | awk '$2 > 0' | sort)" \
	"self time per function = the sum over its paths"
"$CS" export -i w.data --format=folded --value=calls -o calls.txt
is "$(leaf_sums calls.txt)" "$(jq -r '.functions[] | "\(.name) \(.calls)"' r.json | awk '$2 > 0' | sort)" \
	"calls per function = the sum over its paths"
is "$(grep -c '^main;fact;fact;fact;fact;fact;fact;fact;fact;fact;fact;fact;fact 1$' calls.txt)" 1 \
	"the deepest recursion is one path of its own"
is "$(grep -vc '^main' calls.txt)" 0 "every path starts at main"
done_testing
