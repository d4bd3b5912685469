#!/bin/sh
# record --mode=sample|trace|both chooses what is recorded, whatever the
# binary carries: --mode=sample leaves a program's hooks idle (no call is
# traced under any hook kind) and samples it; --mode=both traces and
# samples; tracing a program without hooks is a usage error.
. "$(dirname "$0")/lib.sh"

plan 16
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog sample_hot hooked -O2 $flags
	limited "$CS" record --mode=sample -o s.data -- ./hooked flat 300 > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:done" "$kind --mode=sample: the program runs unchanged"
	"$CS" report -i s.data --json > r.json
	calls=$(jq '[.functions[] | .calls // 0] | add // 0' r.json)
	top=$(jq -r '[.functions[] | select(.self_samples > 0)] | max_by(.self_samples) | .name' r.json)
	[ "$calls" -eq 0 ] && [ "$top" = hot ]
	ok $? "$kind --mode=sample: no call traced ($calls), the samples put hot on top ($top)"
done
grep -q "sampling './hooked' at 999 Hz of CPU time; its profiling hooks stay idle" err.txt
ok $? "--mode=sample says the hooks stay idle"
is "$("$CS" info -i s.data --json | jq -r .mode)" sample "info gives the mode as sample"

build_prog sample_hot traced -O2 -pg
limited "$CS" record --mode=both -o b.data -- ./traced flat 100 > /dev/null 2> err.txt
grep -q "tracing './traced' and sampling it" err.txt
ok $? "--mode=both: traced and sampled"
"$CS" report -i b.data --json > b.json
[ "$(jq '[.functions[] | select(.name == "hot") | .calls] | add' b.json)" -eq 100 ] &&
	[ "$(jq '.samples // 0' b.json)" -gt 0 ]
ok $? "--mode=both: exact calls beside the samples"
limited "$CS" record --mode=trace -o t.data -- ./traced flat 100 > /dev/null 2>&1
"$CS" report -i t.data --json > t.json
[ "$(jq '[.functions[] | select(.name == "hot") | .calls] | add' t.json)" -eq 100 ] &&
	[ "$(jq '.samples // 0' t.json)" -eq 0 ]
ok $? "--mode=trace: calls, no samples"

build_prog sample_hot plain -O2
for m in trace both; do
	"$CS" record --mode=$m -o x.data -- ./plain flat 10 > /dev/null 2> err.txt
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l < err.txt)" -eq 1 ] &&
		grep -q "carries no profiling hooks, so it cannot be traced as built: add --patch .*--mode=sample" err.txt
	ok $? "--mode=$m on a program without hooks: one line, usage error ($rc)"
done
limited "$CS" record --mode=sample -o p.data -- ./plain flat 100 > /dev/null 2>&1
is "$?" 0 "--mode=sample on a program without hooks"
"$CS" record --mode=sample --start-at=hot -o x.data -- ./traced > /dev/null 2> err.txt
[ $? -eq 2 ] && grep -q "need tracing; leave out --mode=sample" err.txt
ok $? "--mode=sample with --start-at is a usage error"
"$CS" record --mode=sampel -o x.data -- ./traced > /dev/null 2> err.txt
[ $? -eq 2 ] && grep -q "wants trace, sample, both" err.txt
ok $? "an unknown mode names the ones there are"
done_testing
