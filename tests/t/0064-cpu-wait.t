#!/bin/sh
# A call's time leaves out the time its thread waited, preempted, for a
# CPU: burn() spins through a loop that calls nothing (no hook runs in
# it) ten times while a second thread spins beside it on the same CPU, so
# each call takes about twice as long by the clock or more.  Its recorded
# time must come out near the CPU time, as perf's cpu-clock would give
# it, not near the wall time; a trace's background samples, taken in the
# middle of the loop, must not stamp it with the clock before the waits
# are taken off.
. "$(dirname "$0")/lib.sh"

plan 9
build_prog cpu_share p_pg -O2 -pg
build_prog cpu_share p_cyg -O2 -finstrument-functions

# check NAME MODE PROGRAM: records PROGRAM in MODE and compares burn's
# time with the CPU time the program measured for it
check() {
	limited "$CS" record --mode="$2" -o "$1.data" -- "./$3" 10 40 > "$1.out" 2>/dev/null
	read -r cpu wall < "$1.out"
	ok $(( wall * 10 < cpu * 15 )) "$1: the rival thread made burn wait (CPU $cpu ns, wall $wall ns)"
	# a trace says whether the runtime saw the thread's context switches
	# (a container's seccomp filter may refuse perf_event_open)
	[ "$1" = pg-trace ] && left=$("$CS" info -i "$1.data" --json | jq '.processes[0].waits_left_out')
	if [ "$left" != true ]; then
		skip "$1: the kernel gives this thread no context switch records"
		return
	fi
	total=$("$CS" report -i "$1.data" --json | jq '[.functions[] | select(.name == "burn") | .total_ns] | add')
	ok $(( total * 100 < cpu * 90 || total * 100 > cpu * 115 )) \
		"$1: burn's time is its CPU time within -10/+15 % ($total ns against $cpu ns)"
}
check pg-trace trace p_pg
check cyg-trace trace p_cyg
check pg-count count p_pg

# info says how much of the main thread's waiting the clock left out
"$CS" info -i pg-trace.data --json > i.json
if [ "$(jq '.processes[0].waits_left_out' i.json)" = true ]; then
	is "$(jq '.processes[0] | .run_wait_left_out_ns > 0 and .run_wait_left_out_ns <= .run_wait_ns' i.json)" \
		true "the waiting left out is recorded, no more than the kernel's schedstat says"
	"$CS" info -i pg-trace.data | grep -q "waited for a CPU [0-9]* % of its run (.* running): .* of it left out of its calls' times"
	ok $? "info says how much of the waiting was left out of the times"
else
	skip "no context switch records"
	skip "no context switch records"
fi
# those are the main thread's: another thread's own profile has none
pid=$(jq '.processes[0].pid' i.json)
rival=$(jq --argjson p "$pid" '[.threads[] | select(.tid != $p) | .tid][0] // empty' i.json)
main_cpu=$("$CS" report -i pg-trace.data --json --tid="$pid" | jq '.run_cpu_ns // 0')
rival_cpu=$("$CS" report -i pg-trace.data --json --tid="$rival" | jq '.run_cpu_ns // 0')
[ -n "$rival" ] && [ "$main_cpu" -gt 0 ] && [ "$rival_cpu" -eq 0 ]
ok $? "the main thread's running and waiting are in its own profile, not the other thread's ($main_cpu, $rival_cpu)"
done_testing
