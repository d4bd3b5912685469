#!/bin/sh
# export --format=chrome: the JSON parses, holds one complete event per
# call (per function as many as its calls), on each thread's own track,
# and marks as instant events.
. "$(dirname "$0")/lib.sh"

plan 9
build_prog basic bin -O2 -pg
limited "$CS" record -o b.data -- ./bin 15 >/dev/null 2>&1
"$CS" export -i b.data --format=chrome -o trace.json
ok $? "export writes the trace"
jq -e '.traceEvents | length > 0' trace.json >/dev/null
ok $? "jq parses it"
for fn in main loop leaf fib; do
	is "$(jq --arg f $fn '[.traceEvents[] | select(.ph == "X" and .name == $f)] | length' trace.json)" \
	   "$(calls_of b.data $fn)" "one event per call of $fn"
done
jq -e '[.traceEvents[] | select(.ph == "X") | select(.dur < 0 or .ts < 0)] | length == 0' trace.json >/dev/null
ok $? "no event has a negative time"

build_prog threads thr -O2 -pg
limited "$CS" record -o t.data -- ./thr >/dev/null 2>&1
"$CS" export -i t.data --format=chrome -o t.json
is "$(jq '[.traceEvents[] | select(.ph == "X" and .name == "work") | .tid] | unique | length' t.json)" 5 \
	"work() shows on the track of each of its 5 threads"

build_prog marks marks -O2 -pg -I "$ROOT/include"
limited "$CS" record -o m.data -- ./marks >/dev/null 2>&1
"$CS" export -i m.data --format=chrome -o m.json
is "$(jq -r '[.traceEvents[] | select(.ph == "i" and .name == "mark") | .args.text // .args.value] | join(",")' m.json)" \
	'7,phase "2"' "marks become instant events"
done_testing
