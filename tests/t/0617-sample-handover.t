#!/bin/sh
# The main thread's start: it is sampled at once by the POSIX timer while a
# thread of the runtime's own opens its task-clock event (whose first
# opening on a quiet machine waits some milliseconds in the kernel), and
# the event takes over at the timer's next signal.  Every period of CPU
# time is sampled once across the switch, both sources show, and a fork,
# an exec or an exit while the event is being opened leave nothing half
# done.  The kernel's wait comes only when no other program holds a perf
# event, so the tests make it with a preloaded shim that delays that
# opening (tests/inject/slow_perf_open.c).
. "$(dirname "$0")/lib.sh"
needs_shims "$SLOW_PERF_OPEN"
. "$ROOT/tests/t/lib-sampling.sh"

plan 13
build_prog sample_handover ho -O2
"$CS" record -o probe.data -- ./ho spin 20 > /dev/null 2>&1
events=1
[ "$("$CS" report -i probe.data --json | jq -r .sample_source)" = tick-timer ] && events=0

# rates_ok LOW HIGH N < worker_rates output: N processes, each with
# samples per period of its CPU time in [LOW, HIGH]
rates_ok() {
	awk -v lo="$1" -v hi="$2" -v want="$3" '{ n++; if ($3 < lo || $3 > hi) bad = 1 }
		END { exit !(n == want && !bad) }'
}
# slowly CMD...: CMD with the main thread's event opened once it has run
# 150 ms of CPU
slowly() {
	CALLSCOPE_SLOW_PERF_OPEN_MS=150 LD_PRELOAD=$SLOW_PERF_OPEN "$@"
}

# sampled WHAT PROCESSES MODE MS: record ./ho MODE MS with the late event;
# the program runs unharmed, and each of its PROCESSES is sampled for its
# CPU time
sampled() {
	slowly limited "$CS" record -o "$3.data" -- ./ho "$3" "$4" > out.txt 2> /dev/null
	is "$?" 0 "$1: the program runs unharmed"
	worker_rates "$3.data" out.txt 999 > rates.txt
	echo "# tid samples rate: $(tr '\n' ';' < rates.txt)"
	rates_ok 0.8 1.2 "$2" < rates.txt
	ok $? "$1: each of its $2 processes is sampled for its CPU time"
}

limited "$CS" record -o s.data -- ./ho spin 300 > out.txt 2> /dev/null
is "$?" 0 "record of a program that spins from its first instruction succeeds"
worker_rates s.data out.txt 999 > rates.txt
echo "# tid samples rate: $(tr '\n' ';' < rates.txt)"
rates_ok 0.85 1.15 1 < rates.txt
ok $? "one sample per period of the thread's CPU time"

sampled "the event opened late" 1 spin 300
"$CS" report -i spin.data --json > r.json
timer=$(jq .tick_timer_samples r.json)
samples=$(jq .samples r.json)
echo "# $samples samples, $timer by the timer"
if [ $events = 0 ]; then
	for _ in 1 2 3; do
		skip "perf events are not allowed on this machine: the timer does it all"
	done
else
	[ "$timer" -ge 10 ]
	ok $? "the timer sampled the start ($timer samples)"
	[ "$((samples - timer))" -ge 10 ]
	ok $? "the task-clock event took over ($((samples - timer)) samples)"
	"$CS" info -i spin.data | grep -q "samples: .*($timer by the timer at the scheduler tick)"
	ok $? "info says how many samples the timer took"
fi

sampled "a fork at once" 2 fork 200
sampled "an exec at once" 1 exec 200

slowly limited "$CS" record -o x.data -- ./ho exit > /dev/null 2> /dev/null
is "$?" 0 "a program that exits before its event is open is recorded"
"$CS" report -i x.data --json > x.json 2> /dev/null
is "$(jq ".samples // 0" x.json)" 0 "its recording reads back, with no samples"
done_testing
