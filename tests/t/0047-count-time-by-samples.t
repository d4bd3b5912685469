#!/bin/sh
# record --mode=count --time-by=samples: calls counted exactly per call
# path with no clock read per call; time from timer samples that read the
# thread's shadow stack, so a function called the same number of times
# from two places gets each place's own share of its time (which gprof,
# splitting by calls, cannot give); samples in the hooks are counted apart.
. "$(dirname "$0")/lib.sh"

plan 20
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog sample_hot hot_$kind -O2 $flags
	# at 4999 Hz the run takes about 650 samples: the share below then
	# lies within its bounds by more than 5 standard deviations, where
	# the default 999 Hz (about 130) left it at 3 and failed under load
	limited "$CS" record --freq=4999 --mode=count --time-by=samples -o s.data -- \
		./hot_$kind stack 200 >/dev/null 2>err.txt
	ok $? "$kind: records"
	limited "$CS" record -o t.data -- ./hot_$kind stack 20 >/dev/null 2>&1
	limited "$CS" record --mode=count --time-by=samples -o s20.data -- ./hot_$kind stack 20 \
		>/dev/null 2>&1
	call_paths t.data > t.txt
	call_paths s20.data > s.txt
	cmp -s t.txt s.txt
	ok $? "$kind: the trace's call paths and counts, exactly"
	# spin is called 200 times from each path, with 80 % of the work
	# under path_a
	share=$(path_a_share s.data)
	ok $(( share < 68 || share > 92 )) "$kind: path_a's share of spin's time is ${share} % (80 expected)"
	"$CS" report -i s.data --json > s.json
	is "$(jq -r '.time_by' s.json)" samples "$kind: the report says the times are samples'"
	ok $(( $(jq '.time_samples' s.json) < 50 )) "$kind: $(jq '.time_samples' s.json) samples timed the program"
done
"$CS" report -i s.data | grep -q '^# times from [0-9]* timer samples of .* the hooks: [0-9]* samples'
ok $? "the text report says how many samples the hooks took"
build_prog exit_open leafy -O2 -pg
limited "$CS" record --mode=count --time-by=samples -o l.data -- ./leafy 3000000 >/dev/null 2>&1
hooks=$("$CS" report -i l.data --json | jq '.time_hook_samples')
ok $(( hooks < 1 )) "3 M calls of a one-line leaf: $hooks samples fell in the hooks, counted apart"
"$CS" record --time-by=samples -o x.data -- ./hot_PG stack 1 >/dev/null 2>err.txt
rc=$?
ok $(( rc == 0 || $(wc -l < err.txt) != 1 )) "--time-by=samples without --mode=count: one line, refused"
"$CS" record --mode=count --time-by=samples -e page-faults -o x.data -- ./hot_PG stack 1 >/dev/null 2>err.txt
rc=$?
ok $(( rc == 0 || $(wc -l < err.txt) != 1 )) "--time-by=samples with -e: one line, refused"
"$CS" record --mode=count --time-by=cycles -o x.data -- ./hot_PG stack 1 >/dev/null 2>err.txt
rc=$?
ok $(( rc == 0 || $(wc -l < err.txt) != 1 )) "--time-by=cycles: one line, refused"
done_testing
