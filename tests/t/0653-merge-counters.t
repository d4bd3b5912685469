#!/bin/sh
# merge --keep-events keeps the counters the runs counted (record -e):
# the merged file names them as the inputs did, and each run's counts in
# it are the input's; runs that counted other events are refused with
# one line, as a sum refuses them.
. "$(dirname "$0")/lib.sh"

plan 4
fn() { jq --arg f "$2" "[.functions[] | select(.name == \$f) | .$3] | add" "$1"; }
build_prog counters ct -O2 -pg
limited "$CS" record -e page-faults -o a.data -- ./ct 1000 > /dev/null 2>&1
limited "$CS" record -e page-faults -o b.data -- ./ct 2000 > /dev/null 2>&1
limited "$CS" record -o c.data -- ./ct 1000 > /dev/null 2>&1
"$CS" merge --keep-events -o k.data a.data b.data 2> err.txt
is "$? $(cat err.txt)" "0 callscope: merged 2 recordings (2 processes, 2 threads) into 'k.data'" \
	"merge writes the file, leaving nothing out"
"$CS" report -i k.data --json > k.json
is "$(jq -r '.counters | join(",")' k.json)" "page-faults" "the counter is named"
pid=$("$CS" info -i b.data --json | jq '.processes[0].pid')
"$CS" report -i k.data --pid="$pid" --json > kb.json
"$CS" report -i b.data --json > b.json
is "$(fn kb.json touch_pages c1) $(fn kb.json outer c1_total)" \
	"$(fn b.json touch_pages c1) $(fn b.json outer c1_total)" \
	"the second run's page faults are the input's"
"$CS" merge --keep-events -o bad.data a.data c.data > /dev/null 2> err.txt
rc=$?
[ "$rc" -ne 0 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "'c.data' counted other events (none)" err.txt
ok $? "runs that counted other events: one line, non-zero exit ($rc)"
done_testing
