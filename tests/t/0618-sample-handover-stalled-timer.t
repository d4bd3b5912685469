#!/bin/sh
# The main thread's start when its POSIX timer stops signalling: on a
# loaded machine the kernel, which checks CPU-time timers at its tick, may
# leave a thread's timer without a signal for the rest of its run.  The
# task-clock event opened meanwhile must take over all the same (at its own
# first signal, not at the timer's), and the CPU time the timer left
# unsampled must be counted, once.  A preloaded shim makes the main
# thread's timer signal once only (tests/inject/stalled_timer.c), another
# opens its event once it has run 150 ms of CPU (slow_perf_open.c).
. "$(dirname "$0")/lib.sh"
needs_shims "$SLOW_PERF_OPEN" "$STALLED_TIMER"
. "$ROOT/tests/t/lib-sampling.sh"

plan 8
build_prog sample_handover ho -O2
"$CS" record -o probe.data -- ./ho spin 20 > /dev/null 2>&1
if [ "$("$CS" report -i probe.data --json | jq -r .sample_source)" = tick-timer ]; then
	for _ in 1 2 3 4 5 6 7 8; do
		skip "perf events are not allowed on this machine: there is no hand-over"
	done
	done_testing
	exit 0
fi

# stalled WHAT MODE MS: record ./ho MODE MS with the stalled timer and the
# late event; the program runs unharmed, is sampled for its CPU time, and
# the timer's share and the event's are both there
stalled() {
	CALLSCOPE_STALLED_TIMER=1 CALLSCOPE_SLOW_PERF_OPEN_MS=150 \
		LD_PRELOAD="$SLOW_PERF_OPEN $STALLED_TIMER" \
		limited "$CS" record -o "$2.data" -- ./ho "$2" "$3" > out.txt 2> /dev/null
	is "$?" 0 "$1: the program runs unharmed"
	worker_rates "$2.data" out.txt 999 > rates.txt
	echo "# tid samples rate: $(tr '\n' ';' < rates.txt)"
	awk '{ n++; if ($3 < 0.8 || $3 > 1.2) bad = 1 } END { exit !(n == 1 && !bad) }' rates.txt
	ok $? "$1: one sample per period of the main thread's CPU time"
	"$CS" report -i "$2.data" --json > r.json
	timer=$(jq .tick_timer_samples r.json) samples=$(jq .samples r.json)
	echo "# $samples samples, $timer by the timer"
	[ "$timer" -ge 20 ]
	ok $? "$1: the CPU time the timer left unsampled is counted ($timer samples)"
	[ "$((samples - timer))" -ge 30 ]
	ok $? "$1: the task-clock event took over ($((samples - timer)) samples)"
}

stalled "a timer that signals once" spin 300
stalled "the same after an exec" exec 250
done_testing
