#!/bin/sh
# A thread that blocks (a sleep, a join) keeps its blocked time in the
# call that blocked, and with it the wait to run again once woken, which
# no context switch record marks as preempted.  A main thread that mostly
# sleeps beside a busy CPU (db_bench's, waiting on its benchmark thread)
# waits so for most of its little running time: the report's header once
# said that "the program waited for a CPU 81 % of its run that its clock
# could not leave out ... most in short, often-called functions'", of a
# wait that was all in nanosleep.  It says so only where the runtime saw
# no context switches (here a seccomp filter refuses perf_event_open),
# and then the waiting is in the times.
. "$(dirname "$0")/lib.sh"

command -v taskset > /dev/null || { echo "1..0 # SKIP taskset is not installed"; exit 0; }
plan 5
build_prog naps p -O2 -pg
cc -O2 -o deny "$PROGS/deny_perf_events.c"
cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')
taskset -c "$cpu" sh -c 'while :; do :; done' &
spinner=$!
limited taskset -c "$cpu" "$CS" record -o seen.data -- ./p 200 > /dev/null 2>&1
limited taskset -c "$cpu" ./deny "$CS" record -o unseen.data -- ./p 200 > /dev/null 2>&1
kill "$spinner"

# the share of the main thread's run it waited with its clock running on
kept_share() {
	jq '.processes[0] | (.run_wait_ns - .run_wait_left_out_ns) * 100
		/ (.run_wait_ns - .run_wait_left_out_ns + .run_cpu_ns) | floor' "$1"
}
said() { "$CS" report -i "$1" | grep -c '^# the program waited for a CPU [0-9]* % of its run'; }

"$CS" info -i seen.data --json > seen.json
kept=$(kept_share seen.json)
if [ "$(jq '.processes[0].waits_left_out' seen.json)" = true ] && [ "$kept" -ge 10 ]; then
	is "$(said seen.data)" 0 "switches seen: no header line of the wake-ups' wait ($kept % of the main thread's run)"
	is "$("$CS" report -i seen.data --json | jq '.run_wait_unseen_ns')" 0 "switches seen: none of the waiting unseen"
	"$CS" info -i seen.data | grep -q "waited for a CPU [0-9]* % of its run (.* running): .* of it left out of its calls' times, the rest is in them"
	ok $? "info still says how much the main thread waited, and that the clock kept part of it"
else
	skip "no context switch records, or the wake-ups hardly waited ($kept %)"
	skip "no context switch records, or the wake-ups hardly waited ($kept %)"
	skip "no context switch records, or the wake-ups hardly waited ($kept %)"
fi

"$CS" info -i unseen.data --json > unseen.json
kept=$(kept_share unseen.json)
is "$(jq '.processes[0].waits_left_out' unseen.json)" false "perf_event_open refused: no context switch records"
is "$(said unseen.data)" "$([ "$kept" -ge 10 ] && echo 1 || echo 0)" \
	"switches unseen: the header says how long the main thread waited when a tenth or more ($kept %)"
done_testing
