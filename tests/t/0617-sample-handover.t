#!/bin/sh
# The main thread's start: it is sampled at once by the POSIX timer while a
# thread of the runtime's own opens its task-clock event (whose first
# opening on a quiet machine waits some milliseconds in the kernel), and
# the event takes over at the timer's next signal.  Every period of CPU
# time is sampled once across the switch, both sources show, and a fork,
# an exec or an exit right at the start leave nothing half done.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 11
build_prog sample_handover ho -O2

# rates_ok LOW HIGH N < worker_rates output: N processes, each with
# samples per period of its CPU time in [LOW, HIGH]
rates_ok() {
	awk -v lo="$1" -v hi="$2" -v want="$3" '{ n++; if ($3 < lo || $3 > hi) bad = 1 }
		END { exit !(n == want && !bad) }'
}

limited "$CS" record -o s.data -- ./ho spin 300 > out.txt 2> err.txt
is "$?" 0 "record of a program that spins from its first instruction succeeds"
"$CS" report -i s.data --json > r.json
source=$(jq -r .sample_source r.json)
timer=$(jq .tick_timer_samples r.json)
samples=$(jq .samples r.json)
echo "# source $source, $samples samples, $timer by the timer"
if [ "$source" = tick-timer ]; then
	# perf events are not allowed here: the timer does it all
	skip 2 "perf events are not allowed on this machine"
else
	[ "$timer" -ge 1 ]
	ok $? "the timer sampled the start ($timer samples)"
	[ "$samples" -gt "$timer" ]
	ok $? "the task-clock event took over ($((samples - timer)) samples)"
fi
worker_rates s.data out.txt 999 > rates.txt
echo "# tid samples rate: $(tr '\n' ';' < rates.txt)"
rates_ok 0.85 1.15 1 < rates.txt
ok $? "one sample per period of the thread's CPU time, across the switch"
"$CS" info -i s.data | grep -q "by the timer at the scheduler tick\|timer at the scheduler tick: coarse"
ok $? "info says which samples the timer took"

# runs_sampled WHAT PROCESSES MODE MS: record ./ho MODE MS; the program
# runs unharmed, and each of its PROCESSES is sampled for its CPU time
runs_sampled() {
	limited "$CS" record -o "$3.data" -- ./ho "$3" "$4" > out.txt 2> /dev/null
	is "$?" 0 "$1: the program runs unharmed"
	worker_rates "$3.data" out.txt 999 > rates.txt
	echo "# tid samples rate: $(tr '\n' ';' < rates.txt)"
	rates_ok 0.8 1.2 "$2" < rates.txt
	ok $? "$1: each of its $2 processes is sampled for its CPU time"
}
runs_sampled "a fork at once" 2 fork 200
runs_sampled "an exec at once" 1 exec 200

limited "$CS" record -o x.data -- ./ho exit > /dev/null 2> err.txt
is "$?" 0 "a program that exits at once is recorded"
"$CS" report -i x.data --json > x.json 2> /dev/null
is "$(jq ".samples // 0" x.json)" 0 "its recording reads back, with no samples"
done_testing
