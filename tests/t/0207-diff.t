#!/bin/sh
# diff: per-function change from A to B in self time, total time and
# calls, largest change in self time first; a recording against itself
# shows zero everywhere.
. "$(dirname "$0")/lib.sh"

plan 8
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
shown=$("$CS" diff --json --threshold 10 a.data b.data | jq '.functions | length')
[ "$shown" -ge 1 ] && [ "$shown" -lt "$all" ]
ok $? "--threshold 10 hides the small changes ($shown of $all shown)"
done_testing
