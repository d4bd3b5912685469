#!/bin/sh
# The main thread's context switch records are opened by a thread of the
# runtime's own (the first per-thread perf event on a quiet machine waits
# some milliseconds in the kernel), and the thread takes them up at its
# next hook.  No wait for a CPU may be counted twice or lost around that
# switch: after 50 ms asleep (time for that thread to start opening), one
# burn() call spins 600 M iterations beside a rival thread on the same
# CPU, and the records are opened once the main thread has run 20 ms of
# CPU (a preloaded shim delays that opening, tests/inject/slow_perf_open.c),
# in the middle of that call, with no sample beside the trace to take them
# up earlier.  The waits from the opening on must be left out of burn's
# time, though its first hook after comes only at its end; only those of
# the first 20 ms may stay.
. "$(dirname "$0")/lib.sh"
needs_shims "$SLOW_PERF_OPEN"

plan 6
build_prog cpu_share p -O2 -finstrument-functions

# check MODE: burn's time against the CPU time and wall time the program
# measured for it
check() {
	CALLSCOPE_SLOW_PERF_OPEN_MS=20 LD_PRELOAD=$SLOW_PERF_OPEN limited "$CS" record \
		--mode="$1" --outside-freq=0 -o "$1.data" -- ./p 1 600 50 > "$1.out" 2> /dev/null
	read -r cpu wall < "$1.out"
	ok $(( wall * 10 < cpu * 15 )) "$1: the rival made burn wait (CPU $cpu ns, wall $wall ns)"
	# a trace says whether the runtime saw the thread's context switches
	# (a container's seccomp filter may refuse perf_event_open)
	[ "$1" = trace ] && left=$("$CS" info -i "$1.data" --json | jq '.processes[0].waits_left_out')
	if [ "$left" != true ]; then
		skip "$1: the kernel gives this thread no context switch records"
		skip "$1: the kernel gives this thread no context switch records"
		return
	fi
	total=$("$CS" report -i "$1.data" --json |
		jq '[.functions[] | select(.name == "burn") | .total_ns] | add')
	echo "# burn: $total ns recorded, CPU $cpu ns, wall $wall ns"
	[ "$total" -ge "$((cpu * 9 / 10))" ]
	ok $? "$1: no wait is taken off twice (burn's time is at least its CPU time)"
	# the waits of the first 20 ms of CPU may stay: as many as the run's
	# share, twice over, and 15 % for the rest
	awk -v t="$total" -v c="$cpu" -v w="$wall" \
		'BEGIN { exit !(t <= c * 1.15 + (w - c) * 2 * 20e6 / c) }'
	ok $? "$1: the waits after the opening are left out"
}
check trace
check count
done_testing
