#!/bin/sh
# CodeScape .prf: export --format=prf writes a trace profile that reads
# back with every function's self time, total time and calls unchanged
# (diff of the recording against it shows zero everywhere) and call
# paths (tree -i); a damaged file is refused with one line naming the
# offset.
. "$(dirname "$0")/lib.sh"

plan 14
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record -o w.data -- ./work 20 >/dev/null 2>&1
"$CS" export -i w.data --format=prf -o w.prf
ok $? "export writes the .prf"
is "$(head -c 14 w.prf)" "PROFILER FILE:" "it starts with the guide's ID"
"$CS" diff --json w.data w.prf >d.json
ok $? "diff reads it"
is "$(jq '[.functions[] | .self_ns_delta, .total_ns_delta, .calls_delta | select(. != 0)] | length' d.json)" 0 \
	"self, total and calls of every function read back unchanged"
is "$(jq '[.functions[] | select(.status != "both")] | length' d.json)" 0 "no function lost or added"
"$CS" report -i w.prf --json >r.json
ok $? "report -i reads it"
is "$(jq '[.functions[] | select(.name == "burn") | .calls] | add' r.json)" \
	"$(calls_of w.data burn)" "report -i on the .prf gives the recording's calls"
"$CS" tree -i w.prf >tree-prf.txt
ok $? "tree -i reads it"
"$CS" tree -i w.data >tree-data.txt
# the headers differ (hooks' cost per call is not in the file); the paths not
is "$(tail -n +3 tree-prf.txt | md5sum)" "$(tail -n +3 tree-data.txt | md5sum)" \
	"tree -i on the .prf shows the recording's call paths, calls and times"
head -c 150 w.prf >bad.prf
"$CS" diff w.data bad.prf >/dev/null 2>err.txt
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'offset [0-9]* in ' err.txt
ok $? "a truncated file: exit $rc, one line: $(cat err.txt)"
"$CS" tree -i bad.prf >/dev/null 2>err.txt
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'offset [0-9]* in ' err.txt
ok $? "tree -i of the truncated file: exit $rc, one line"

# record -e: a counter the guide has no id for is named in one warning and
# left out (counter 2 none); the times are still written
limited "$CS" record -e page-faults -o e.data -- ./work 20 >/dev/null 2>&1
"$CS" export -i e.data --format=prf -o e.prf 2>err.txt
ok $? "a recording with a counter exports"
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q "counter 'page-faults' has no id" err.txt
ok $? "one warning names the counter left out: $(cat err.txt)"
is "$(od -An -tu1 -j70 -N1 e.prf | tr -d ' ')" 0 "counter 2 is none (header offset 56)"
done_testing
