#!/bin/sh
# callscope tree: wrong command lines and symspecs get one clear line and
# the right exit status; no counter fields without counters; a recursion
# 300 deep makes a tree 300 deep, in text and JSON.
# Library calls are left out: the node counts are the program's own.
. "$(dirname "$0")/lib.sh"

# fails STATUS PATTERN NAME -- COMMAND...: the command exits with STATUS
# and says PATTERN on stderr in one line.
fails() {
	want=$1 pattern=$2 name=$3
	shift 4
	"$@" >/dev/null 2>err.txt
	status=$?
	if [ "$status" -eq "$want" ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "$pattern" err.txt; then
		ok 0 "$name"
	else
		ok 1 "$name"
		echo "#   status $status (expected $want), stderr:"
		sed 's/^/#   /' err.txt
	fi
}

plan 19
build_prog tree_paths tp -O2 -pg -fno-inline -fno-ipa-cp
limited "$CS" record --no-libcall -o t.data -- ./tp >/dev/null 2>&1

fails 1 "cannot open 'nothing.data'" "a missing file is a clear error" -- \
	"$CS" tree -i nothing.data
fails 2 "threshold wants a percentage" "--threshold takes a percentage" -- \
	"$CS" tree -i t.data --threshold abc
fails 2 "threshold wants a percentage" "--threshold above 100 is refused" -- \
	"$CS" tree -i t.data --threshold 101
fails 2 "depth wants a number" "--depth -1 is refused" -- "$CS" tree -i t.data --depth -1
fails 2 "unknown sort column 'bogus'" "an unknown --sort column is refused" -- \
	"$CS" tree -i t.data --sort bogus
fails 1 "recorded no counter" "--sort=c1 without counters says the recording has none" -- \
	"$CS" tree -i t.data --sort c1
fails 1 "no function 'nope' ran" "--focus on an unknown function" -- \
	"$CS" tree -i t.data --focus nope
fails 1 "names a source file" "--focus FILE:LINE is refused as not supported" -- \
	"$CS" tree -i t.data --focus tree_paths.c:30
fails 1 "no object 'libnope.so'" "--focus on an unknown object" -- \
	"$CS" tree -i t.data --focus libnope.so:shared
fails 2 "wants NAME or OBJECT:NAME" "--focus with an empty name" -- \
	"$CS" tree -i t.data --focus tp:
fails 1 "no thread in 't.data' matches" "--pid that matches nothing" -- \
	"$CS" tree -i t.data --pid 4000000000
fails 2 "unexpected argument 'extra'" "a stray argument is refused" -- \
	"$CS" tree t.data extra

"$CS" tree -i t.data --json > t.json
is "$(jq '[.. | objects | select(has("c1") or has("c1_total") or has("c2") or has("c2_total"))] | length' t.json)" \
	0 "no counter fields when the recording has no counters"
"$CS" tree -i t.data | grep -q '^ *% root *calls *self *total  call path$'
ok $? "text columns without counters: % root, calls, self, total"

build_prog tree_deep deep -O2 -pg -fno-inline -fno-optimize-sibling-calls -fno-ipa-cp
limited "$CS" record --no-libcall -o d.data -- ./deep 300 >/dev/null 2>&1
"$CS" tree -i d.data > d.txt
is "$(grep -c ' down$' d.txt)" 300 "a recursion 300 deep shows 300 nested nodes"
grep -q '^.*\[301\] down$' d.txt
ok $? "nodes deeper than the indentation show their depth"
"$CS" tree -i d.data --json > d.json
is "$(tr -cd '{' < d.json | wc -c) $(tr -cd '}' < d.json | wc -c)" "304 304" \
	"the deep tree's JSON is written whole (root, main, 300 down, leaf: 303 nodes + the document)"
"$CS" tree -i d.data --json --depth 50 > d50.json
is "$(jq '.hidden_below_depth' d50.json)" 252 "--depth 50 keeps the JSON shallow and counts what it hid"
"$CS" tree -i d.data --json --focus down --depth 3 > f.json
is "$(jq -r '[.tree.name, .tree.calls, .tree.total_ns == .tree.self_ns + .tree.children[0].total_ns] | join(" ")' f.json)" \
	"down 1 true" "--focus on a deep recursion: the outermost call is the root"
done_testing
