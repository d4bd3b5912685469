#!/bin/sh
# record --pid: sampling a running plain program (no hooks, not started by
# callscope) puts its hot function on top; errors are clear.
. "$(dirname "$0")/lib.sh"

plan 6
cc -O1 -g -fno-omit-frame-pointer -o hot "$PROGS/live_hot.c"
./hot &
prog=$!
sleep 0.3
# the CPU the program used while attached (utime + stime, in ticks of
# 1/100 s): on a loaded machine it gets less than 1.5 s of it
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$prog/stat"; }
before=$(cpu_ticks)
LIMIT=30 limited "$CS" record --pid "$prog" --duration 1.5 > prof.txt 2> err.txt
rc=$?
after=$(cpu_ticks)
if [ $rc -ne 0 ] && grep -q 'cannot sample' err.txt; then
	skip "perf_event_open is not allowed here: $(head -n 1 err.txt)"
	skip "perf_event_open is not allowed here"
	skip "perf_event_open is not allowed here"
else
	ok $rc "record --pid ran"
	is "$(awk '!/^#/ && $1 != "%" { print $NF; exit }' prof.txt)" "hot_loop" "the hot function is on top"
	n=$(awk '/^# callscope record --pid/ { print $6 }' prof.txt)
	# at 999 Hz of its CPU time; at least half of that, and 10
	want=$(awk -v t=$((after - before)) 'BEGIN { w = int(t / 100 * 999 / 2); print w < 10 ? 10 : w }')
	[ -n "$n" ] && [ "$n" -ge "$want" ]
	ok $? "samples follow the CPU the program used ($n for $((after - before))0 ms; at least $want)"
fi
# another user's process: refused, and the message says why
if [ "$(id -u)" -ne 0 ] || ! setpriv --reuid=nobody --regid=nogroup --clear-groups true 2> /dev/null; then
	skip "setpriv cannot switch to the user nobody here (needs root)"
else
	cp "$CS" "$WORK/cs"
	chmod 755 "$WORK" "$WORK/cs"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$WORK/cs" record --pid "$prog" \
		--duration 0.2 > /dev/null 2> other.txt
	rc=$?
	chmod 700 "$WORK"
	[ $rc -ne 0 ] && [ "$(wc -l < other.txt)" -eq 1 ] &&
		grep -q "cannot sample process $prog: it belongs to another user" other.txt
	ok $? "another user's process: one line that says so ($rc)"
fi
touch quit
wait $prog
is "$?" 0 "the program ran on and ended normally"

"$CS" record --pid 999999999 > /dev/null 2> nope.txt
[ $? -ne 0 ] && grep -q 'no such process' nope.txt
ok $? "a process that does not exist is a clear error"
done_testing
