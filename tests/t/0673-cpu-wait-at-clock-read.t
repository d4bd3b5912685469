#!/bin/sh
# A hook looks for the thread's waits for a CPU after its clock reading:
# one that looked first and was preempted before its reading kept that
# wait in its call's time for good.  short_calls spends most of its run in
# the hooks; beside a busy process pinned to its CPU, the scheduler
# preempts it hundreds of times, and so it once kept 10-15 % of its
# waiting (the kernel's schedstat against the waits its clock left out),
# whole time slices of the busy process (4 ms) in single calls of step(),
# a one-line function, in a trace as in count mode.  A wait inside the
# runtime's own pause (a buffer's growth, made to yield the CPU for 5 ms
# by tests/inject/preempt_in_grow.c) is left out with the pause, and
# counts as left out too: info once said 30 % of such a run's waiting was
# in its calls' times, where none of it was.
. "$(dirname "$0")/lib.sh"

command -v taskset > /dev/null || { echo "1..0 # SKIP taskset is not installed"; exit 0; }
plan 4
build_prog short_calls p -O2 -pg
build_prog exit_open g -O2 -pg
cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')
taskset -c "$cpu" sh -c 'while :; do :; done' &
spinner=$!
limited taskset -c "$cpu" "$CS" record -o trace.data -- ./p 8000000 100 > /dev/null 2>&1
limited taskset -c "$cpu" "$CS" record --mode=count -o count.data -- ./p 8000000 100 \
	> /dev/null 2>&1
LD_PRELOAD="$BUILD/tests/libpreempt_in_grow.so" limited taskset -c "$cpu" \
	"$CS" record -o grow.data -- ./g 3000000 > /dev/null 2>&1
kill "$spinner"

# check NAME MOST: the waiting the main thread's clock kept (schedstat's
# less what it left out) is under MOST thousandths of all of it.  Some
# stays: waits before its switch records were opened (short_calls sleeps
# 100 ms first, time for the opening; grow's first buffer yields for 5 ms
# before it, up to 40 thousandths of its waiting), and the wake-up after
# a hook blocked writing its buffer (a page the kernel was writing back).
check() {
	"$CS" info -i "$1.data" --json > "$1.json"
	if [ "$(jq '.processes[0].waits_left_out' "$1.json")" != true ]; then
		skip "$1: the kernel gives this thread no context switch records"
		return 1
	fi
	wait_ns=$(jq '.processes[0].run_wait_ns' "$1.json")
	kept=$(jq '.processes[0] | (.run_wait_ns - .run_wait_left_out_ns) * 1000
		/ ([.run_wait_ns, 1] | max) | floor' "$1.json")
	ok $(( wait_ns < 50000000 || kept >= $2 )) \
		"$1: the clock left out all but $kept thousandths of the main thread's $wait_ns ns of waiting"
}

check trace 50
check count 50
if check grow 100; then
	"$CS" info -i grow.data |
		grep -q "waited for a CPU [1-9][0-9]* % of its run (.* running): .* of it left out of its calls' times$"
	ok $? "grow: info says nothing of waiting in the calls' times"
else
	skip "grow: no context switch records"
fi
done_testing
