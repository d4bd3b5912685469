#!/bin/sh
# Time of calls that were already running where a thread's data begins
# (a forked child's inherited frames, a capture resumed after a stop) is
# in self and total but is no call: the flat profile keeps its columns
# consistent (total = calls x total/call + continued time, for a function
# that does not recurse), tags such functions and explains the tag.
. "$(dirname "$0")/lib.sh"

# consistent DATA FUNC: "CALLS yes" when FUNC's total is exactly its
# calls times its average plus its continued time, and that time is not 0.
consistent() {
	"$CS" report "$1" --json | jq -r --arg f "$2" '.functions[] | select(.name == $f) |
		"\(.calls) \(if .total_ns == .avg_ns * .calls + .continued_ns and .continued_ns > 0 then "yes" else "no: \(.total_ns) \(.avg_ns) \(.continued_ns)" end)"'
}

plan 6
build_prog fork fk -O2 -pg
limited "$CS" record -o fk.data -- ./fk > /dev/null 2>&1
is "$(consistent fk.data main)" "1 yes" "fork: main's total is its call plus the child's continued main"
is "$(consistent fk.data spawn)" "1 yes" "fork: so is spawn's, which the child left from"
"$CS" report fk.data > out.txt
grep -q ' main .*\[continued from before the data\]\( \[[^]]*\]\)*$' out.txt
ok $? "fork: main is tagged as continued"
grep -q '^# \[continued from before the data\]: ' out.txt
ok $? "fork: the legend explains the tag"

cc -g -O2 -pg -I "$ROOT/include" -o api "$PROGS/live_api.c"
limited "$CS" record -o api.data -- ./api > /dev/null 2>&1
is "$(consistent api.data main)" "1 yes" "stop and start: main's total is its call plus the part after the start"
"$CS" report api.data --json > r.json
is "$(jq '[.functions[] | select(.name == "shown") | .continued_ns] | add' r.json)" 0 \
	"stop and start: a function called only while on has no continued time"
done_testing
