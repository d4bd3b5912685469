#!/bin/sh
# Threads started by an un-instrumented program are sampled too (the
# runtime's pthread_create), each in proportion to its CPU time: three
# threads doing work in the ratio 1:2:3.  Each worker reports the CPU time
# it used, and its samples must match that time at 999 Hz; on a loaded
# machine the CPU per unit of work varies, the samples per CPU second do
# not.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 5
build_prog sample_threads th -O2
limited "$CS" record -o t.data -- ./th 8 > out.txt 2> /dev/null
is "$?" 0 "record succeeds"
"$CS" report -i t.data --thread --json > t.json
worker_rates t.data out.txt 999 > rates.txt
echo "# tid samples samples-per-CPU-period: $(tr '\n' ';' < rates.txt)"
echo "# CPU ns measured by the workers: $(awk '$1 == "cpu" { printf "%s ", $3 }' out.txt)"
is "$(awk '$2 > 0' rates.txt | wc -l | tr -d ' ')" 3 "each of the three workers has samples"
# the perf task-clock event samples every period; the tick-grained timer
# (where perf events are not allowed) ends up to a tick short per thread
lo=0.8 hi=1.2 spread=1.3
[ "$(jq -r .sample_source t.json)" = tick-timer ] && lo=0.6 hi=1.4 spread=1.6
rates_within $lo $hi < rates.txt
ok $? "each worker's samples match its own CPU time at 999 Hz ($lo..$hi)"
# proportionality itself: the workers' rates agree with each other
awk -v s=$spread '{ r[NR] = $3 } END { mn = mx = r[1]; for (i in r) { if (r[i] < mn) mn = r[i]; if (r[i] > mx) mx = r[i] }
	exit !(NR == 3 && mn > 0 && mx / mn <= s) }' rates.txt
ok $? "the three workers are sampled at the same rate per CPU second (within $spread)"
is "$(jq '[.threads[] | select(.tid == .pid) | .samples // 0] | add // 0 | . < 20' t.json)" true \
	"the main thread, which only waits, has (almost) no samples"
done_testing
