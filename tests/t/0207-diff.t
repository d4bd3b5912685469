#!/bin/sh
# diff: per-function change from A to B in self time, total time and
# calls, largest change in self time first; a recording against itself
# shows zero everywhere.  Two sampled recordings compare their samples.
. "$(dirname "$0")/lib.sh"

plan 12
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record -o a.data -- ./work 20 >/dev/null 2>&1
limited "$CS" record -o b.data -- ./work 60 >/dev/null 2>&1

"$CS" diff --json a.data a.data >same.json
ok $? "diff against itself"
is "$(jq '[.functions[] | .self_ns_delta, .total_ns_delta, .calls_delta | select(. != 0)] | length' same.json)" 0 \
	"zero everywhere"
is "$(jq '.functions | length' same.json)" \
	"$("$CS" report -i a.data --json | jq '.functions | length')" "every function listed"

"$CS" diff --json a.data b.data >d.json
is "$(jq '.functions[] | select(.name == "burn") | .calls_delta' d.json)" 40 "burn: 40 more calls"
is "$(jq '.functions[] | select(.name == "leaf") | .calls_delta' d.json)" 0 "leaf: the same calls"
jq -e '[.functions[] | .self_ns_delta | fabs] as $d | $d == ($d | sort | reverse)' d.json >/dev/null
ok $? "sorted by the absolute change in self time"
"$CS" diff a.data b.data >d.txt
is "$(awk '!/^#/ && ++n == 2 { print $NF; exit }' d.txt)" "$(jq -r '.functions[0].name' d.json)" \
	"the text form leads with the same function"
all=$(jq '.functions | length' d.json)
# --threshold PCT shows a function when its self or its total time moved
# by PCT % of A's self time or more.  How far each one moved is measured
# time, which a loaded machine stretches in one run and not the other (A's
# burn has taken longer than B's three times as many calls), so no fixed
# PCT splits them every time.  The threshold is taken from this diff
# instead: halfway across the widest gap between two functions' moves, so
# that some are shown and some hidden, none near the line.
moves() {
	jq -r '.self_ns_a as $a | .functions[]
		| "\([(.self_ns_delta | fabs), (.total_ns_delta | fabs)] | max * 100 / $a) \(.name)"' "$1"
}
moves d.json > moves.txt
pct=$(awk '{ v = $1 > 100 ? 100 : $1; print v }' moves.txt | sort -g -u |
	awk 'NR > 1 && $1 - prev > gap { gap = $1 - prev; mid = (prev + $1) / 2 } { prev = $1 }
	     END { if (gap > 0) printf "%.9g\n", mid }')
want=$(awk -v t="${pct:-0}" '$1 >= t { print $2 }' moves.txt | sort | paste -sd' ' -)
"$CS" diff --threshold "${pct:-0}" a.data b.data > t.txt 2>&1
got=$("$CS" diff --json --threshold "${pct:-0}" a.data b.data | jq -r '.functions[].name' | sort | paste -sd' ' -)
shown=$(echo "$got" | wc -w)
[ -n "$pct" ] && [ "$shown" -ge 1 ] && [ "$shown" -lt "$all" ] && [ "$got" = "$want" ]
r=$?
ok $r "--threshold $pct shows those that moved by that much, hides the rest ($shown of $all shown: $got)"
[ $r -eq 0 ] || sed 's/^/#   /' moves.txt t.txt d.txt >&2

# two recordings of timer samples: their samples are compared
build_prog sample_hot st -O2 -fno-omit-frame-pointer
limited "$CS" record -o s1.data -- ./st stack >/dev/null 2>&1
limited "$CS" record -o s2.data -- ./st stack >/dev/null 2>&1
samples_of() {
	"$CS" report -i "$1" --json | jq --arg f "$2" "[.functions[] | select(.name == \$f) | .$3] | add // 0"
}
"$CS" diff --json s1.data s2.data >sd.json
is "$(jq -r .unit sd.json)" samples "sampled recordings are compared in samples"
is "$(jq '.functions[] | select(.name == "spin") | .self_samples_delta' sd.json)" \
	"$(( $(samples_of s2.data spin self_samples) - $(samples_of s1.data spin self_samples) ))" \
	"spin's change in self samples"
is "$(jq '.functions[] | select(.name == "main") | .total_samples_b' sd.json)" \
	"$(samples_of s2.data main samples)" "main's total: the samples with it on the stack"
"$CS" diff s1.data a.data >/dev/null 2>err.txt
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'no unit in common' err.txt
ok $? "samples against traced calls refused: exit $rc, one line"
done_testing
