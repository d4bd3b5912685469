#!/bin/sh
# record's sampling options: bad values are usage errors, --only narrows the
# samples to chosen objects, --sample samples an instrumented binary beside
# tracing it, and --freq sets the rate.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 12
build_prog sample_hot plain -O2
"$CS" record --freq 0 -o x.data -- ./plain > /dev/null 2> err.txt
is "$?" 2 "--freq 0 is a usage error"
grep -q "^callscope: --freq wants" err.txt
ok $? "and says what --freq wants"
"$CS" record --sample-clock=sun -o x.data -- ./plain > /dev/null 2>&1
is "$?" 2 "an unknown --sample-clock is a usage error"
"$CS" record --mode=flight -o x.data -- ./plain > /dev/null 2> err.txt
is "$?" 2 "sampling with --mode=flight is refused"

limited "$CS" record --only=plain --freq 499 -o o.data -- ./plain flat 50 > /dev/null 2>&1
"$CS" report -i o.data --json > o.json
is "$(jq --arg o "$PWD/plain" '[.functions[] | select(.self_samples > 0 and .object != $o)] | length' o.json)" \
	0 "--only: every sample lies in the object named"
# each worker of sample_threads says how much CPU its work took: at
# 499 Hz it must have about half a sample per millisecond of it.  Enough
# work that the smallest worker has some 60 samples: a sample or two a
# thread can fall outside the time it measured (its start, its last
# partial period), which at 20 samples is already 10 %.
build_prog sample_threads th -O2
limited "$CS" record --freq 499 -o f.data -- ./th 12 > th.txt 2> /dev/null
worker_rates f.data th.txt 499 > rates.txt
echo "# tid samples samples-per-CPU-period at 499 Hz: $(tr '\n' ';' < rates.txt)"
lo=0.8 hi=1.2
[ "$(jq -r .sample_source o.json)" = tick-timer ] && lo=0.6 hi=1.4
rates_within $lo $hi < rates.txt
ok $? "--freq 499: each thread has 499 samples per second of its CPU ($lo..$hi)"

build_prog sample_hot traced -O2 -pg
limited "$CS" record --sample -o b.data -- ./traced flat 100 > /dev/null 2> err.txt
grep -q "tracing './traced' and sampling it" err.txt
ok $? "--sample on a binary with hooks: traced and sampled"
"$CS" report -i b.data --json > b.json
is "$(jq '[.functions[] | select(.name == "hot") | .calls] | add' b.json)" 100 \
	"the traced calls are exact"
[ "$(jq '[.functions[] | select(.name == "hot") | .self_samples] | add' b.json)" -ge 5 ]
ok $? "and the same function has samples beside them"
# -pg sends returns through the runtime's trampoline: the stacks must
# still show the real callers
m=$(jq '[.functions[] | select(.name == "main") | .total_pct] | add // 0' b.json)
awk -v p="$m" 'BEGIN { exit !(p >= 95) }'
ok $? "traced and sampled: main is on every stack, past the return trampoline ($m)"
is "$("$CS" graph -i b.data --json | jq '[.functions[] | select(.name == "hot") | .calls] | add')" 100 \
	"graph --json keeps the exact calls"
limited "$CS" record --sample --stack=dwarf -o bd.data -- ./traced flat 100 > /dev/null 2>&1
m=$("$CS" graph -i bd.data --json | jq '[.functions[] | select(.name == "main") | .total_pct] | add // 0')
awk -v p="$m" 'BEGIN { exit !(p >= 95) }'
ok $? "graph --json gains total_pct; DWARF stacks pass the trampoline too ($m)"
done_testing
