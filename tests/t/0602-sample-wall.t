#!/bin/sh
# --sample-clock=wall samples a thread that sleeps; the CPU clock does not.
. "$(dirname "$0")/lib.sh"

plan 4
build_prog sample_sleep sl -O2
main_sleep_samples() {
	jq '[.threads[] | select(.tid == .pid) | .functions[]? |
	     select(.name | test("sleep")) | .self_samples] | add // 0' "$1"
}
limited "$CS" record --sample-clock=wall -o w.data -- ./sl > out.txt 2>/dev/null
is "$(cat out.txt)" "done" "the program ran to its end under wall-clock sampling"
"$CS" report -i w.data --thread --json > w.json
n=$(main_sleep_samples w.json)
# 0.4 s asleep at 999 Hz: about 400
[ "$n" -ge 150 ]
ok $? "wall clock: the sleeping main thread is sampled in its sleep ($n)"
limited "$CS" record --sample-clock=cpu -o c.data -- ./sl > /dev/null 2>&1
"$CS" report -i c.data --thread --json > c.json
n=$(main_sleep_samples c.json)
[ "$n" -le 20 ]
ok $? "cpu clock: the sleep is barely sampled ($n)"
is "$("$CS" report -i w.data --json | jq -r .sample_clock)" wall "report names the clock"
done_testing
