#!/bin/sh
# The fallback CPU-time source (--sample-source=timer, used by itself where
# perf events are not allowed): a POSIX CPU-time timer per thread, which
# fires at the scheduler tick; each sample is weighted by the periods it
# stands for, so the totals still follow the CPU time.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 6
build_prog sample_hot hot -O2
limited "$CS" record --sample-source=timer -o s.data -- ./hot flat > /dev/null 2>&1
is "$?" 0 "record succeeds with the timer"
"$CS" report -i s.data --json > r.json
is "$(jq -r .sample_source r.json)" tick-timer "the report says the samples came from the tick timer"
"$CS" report -i s.data | grep -q "timer at the scheduler tick: coarse"
ok $? "the text report says the samples are coarse"
samples=$(jq .samples r.json)
[ "$samples" -ge 100 ]
ok $? "the weighted samples follow the CPU time ($samples for about 0.4 s at 999 Hz)"
hot=$(jq '[.functions[] | select(.name == "hot") | .self_pct] | add' r.json)
awk -v p="$hot" 'BEGIN { exit !(p >= 65 && p <= 95) }'
ok $? "hot's self_pct is 80 +- 15 ($hot)"

build_prog sample_threads th -O2
limited "$CS" record --sample-source=timer -o t.data -- ./th 4 > out.txt 2> /dev/null
# each worker measures the CPU time of its work: under load a unit of work
# costs each thread a different time, so fixed 1:2:3 ratios would be noise
worker_rates t.data out.txt 999 > rates.txt
echo "# tid samples samples-per-CPU-period: $(tr '\n' ';' < rates.txt)"
# the timer fires at the tick: a thread ends up to a tick short
rates_within 0.6 1.4 < rates.txt
ok $? "each of the three threads has samples for the CPU time it used"
done_testing
