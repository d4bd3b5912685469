#!/bin/sh
# record --pid: sampling a running plain program (no hooks, not started by
# callscope) puts its hot function on top; errors are clear.
. "$(dirname "$0")/lib.sh"

plan 5
cc -O1 -g -fno-omit-frame-pointer -o hot "$PROGS/live_hot.c"
./hot &
prog=$!
sleep 0.3
LIMIT=30 limited "$CS" record --pid "$prog" --duration 1.5 > prof.txt 2> err.txt
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot sample' err.txt; then
	skip "perf_event_open is not allowed here: $(head -n 1 err.txt)"
	skip "perf_event_open is not allowed here"
	skip "perf_event_open is not allowed here"
else
	ok $rc "record --pid ran"
	is "$(awk '!/^#/ && $1 != "%" { print $NF; exit }' prof.txt)" "hot_loop" "the hot function is on top"
	grep -q '^# callscope record --pid .*samples' prof.txt &&
		[ "$(awk '/^# callscope record --pid/ { print $6 }' prof.txt)" -gt 100 ]
	ok $? "samples counted ($(awk '/^# callscope record --pid/ { print $6 }' prof.txt))"
fi
touch quit
wait $prog
is "$?" 0 "the program ran on and ended normally"

"$CS" record --pid 999999999 > /dev/null 2> nope.txt
[ $? -ne 0 ] && grep -q 'no such process' nope.txt
ok $? "a process that does not exist is a clear error"
done_testing
