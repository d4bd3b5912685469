#!/bin/sh
# callscope.h marks: in the replay at their place and counted by info,
# also right after callscope_start(); a program using them runs unchanged
# without the runtime.
. "$(dirname "$0")/lib.sh"

plan 10
cc -O2 -finstrument-functions -I "$ROOT/include" -o mk "$PROGS/marks.c"
is "$(./mk)" "done" "runs without the runtime (the weak references are null)"
limited "$CS" record -o m.data -- ./mk >/dev/null 2>&1
"$CS" replay -i m.data > r.txt
grep -q '\[mark 7\]' r.txt
ok $? "numbered mark in the replay"
grep -q '\[mark "phase \\x222\\x22"\]' r.txt
ok $? "text mark in the replay, quotes escaped"
grep -q '\[task 42\]' r.txt
ok $? "task switch in the replay"
awk '/phase_one/ { p = 1 } p && /\[mark 7\]/ { print "inside"; exit }' r.txt | grep -q inside
ok $? "the mark sits inside phase_one"
"$CS" info -i m.data --json > i.json
is "$(jq .marks i.json)" 2 "info counts two marks"
is "$(jq .tasks i.json)" 1 "info counts one task switch"

# Right after callscope_start(), before any hook has run since: kept.
limited "$CS" record -o s.data -- ./mk restart >/dev/null 2>&1
"$CS" replay -i s.data > r.txt
grep -q '\[mark 9\]' r.txt && grep -q '\[task 43\]' r.txt
ok $? "a mark and a task just after callscope_start() are in the replay"
"$CS" info -i s.data --json > i.json
is "$(jq '.marks + .tasks' i.json)" 5 "info counts them: 3 marks and 2 task switches"
is "$(jq .lost_events i.json)" 0 "nothing lost"
done_testing
