#!/bin/sh
# A program's signal that arrives while a hook runs is kept and sent again
# once the hook is done: its handler's run is recorded as a "<signal N>"
# call with the handler's own calls under it, in every mode and hook kind,
# and the program goes on as without the profiler.  (Before, such runs
# went unrecorded, and a return hook interrupted at the wrong instruction
# could take a handler's frame for its own and abort the program.)
. "$(dirname "$0")/lib.sh"

plan 28
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog signal_storm storm -O2 $flags
	for mode in trace count "count --time-by=samples"; do
		# shellcheck disable=SC2086
		limited "$CS" record --mode=$mode -o s.data -- ./storm >runs.txt 2>err.txt
		is "$?" 0 "$kind $mode: the program ends normally"
		runs=$(cat runs.txt)
		is "$(calls_of s.data on_alarm)" "$runs" "$kind $mode: every handler run ($runs) is recorded"
		is "$(calls_of s.data '<signal 14>')" "$runs" "$kind $mode: each as a <signal 14> call"
	done
done

# The sampler's signals at 20 000 a second beside a trace: one that came
# between the test of the held count and the guard sent the held signal
# and the interrupted loop took out one more, wrapping the count, and the
# thread re-sent a blocked signal billions of times (13 runs of 300 hung
# before the fix: 20 runs catch it more often than not).
# shellcheck disable=SC2086
build_prog signal_storm storm -O2 $HOOK_FLAGS_FENTRY
ended=0
for i in $(seq 20); do
	LIMIT=30 limited "$CS" record --outside-freq=20000 -o f.data -- ./storm >/dev/null 2>&1 &&
		ended=$((ended + 1))
done
is "$ended" 20 "FENTRY trace beside 20 000 samples a second: every run of 20 ends"
done_testing
