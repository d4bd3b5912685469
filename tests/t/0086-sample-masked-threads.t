#!/bin/sh
# Workers that start with every signal blocked (thread pools block them
# all around pthread_create, liblzma's among them) are sampled in
# proportion to their CPU time as the main thread is: by the task-clock
# event, by the timer, and beside a trace.  Each thread still reads back
# its mask, by pthread_sigmask and by sigprocmask, and its pending signals
# as it does without record.  A mask set by a system call of the program's
# own still blocks the sampler's signal: the samples lost meanwhile are
# counted.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 11
build_prog masked_threads mt -O2 && build_prog masked_threads mtpg -O2 -pg || exit 1
./mt | grep -v '^cpu ' | sort > plain.txt
for run in sample:mt: timer:mt:--sample-source=timer both:mtpg:--mode=both; do
	name=${run%%:*}
	prog=${run#*:}
	opt=${prog#*:}
	prog=${prog%%:*}
	limited "$CS" record -q -o t.data $opt -- ./$prog > out.txt 2> err.txt
	is "$?" 0 "$name: record succeeds"
	grep -v '^cpu ' out.txt | sort | cmp -s plain.txt -
	ok $? "$name: every thread reads its mask and pending signals as without record"
	# each worker burns as long as the main thread: its rate is the
	# main thread's, within a band wide enough for a loaded machine; a
	# run out of it (now and then on a machine loaded far past its cores, the timer's
	# mostly) is recorded again, twice at most
	for try in 1 2 3; do
		[ $try = 1 ] || limited "$CS" record -q -o t.data $opt -- ./$prog > out.txt 2> err.txt
		worker_rates t.data out.txt 999 > rates.txt
		main=$("$CS" report -i t.data --thread --json | jq -r '.threads[] | select(.tid == .pid) | .tid')
		echo "# $name: tid samples samples-per-CPU-period: $(tr '\n' ';' < rates.txt)"
		awk -v m="$main" '$1 == m { r = $3 } { rate[$1] = $3 }
			END { n = 0; for (t in rate) if (t != m) { n++; if (!(r > 0 && rate[t] >= r / 2 && rate[t] <= r * 2)) exit 1 }
				exit n != 2 }' rates.txt
		rates_ok=$?
		[ $rates_ok = 0 ] && break
	done
	ok $rates_ok "$name: each worker is sampled at the main thread's rate per CPU second (within 2x)"
done
# the kernel says a SIGTRAP waited blocked since Linux 5.18; the runtime
# takes SIGTRAP for task-clock events where the kernel has them (5.13)
limited "$CS" record -q -o raw.data -- ./mt raw > out.txt 2> err.txt
is "$?" 0 "raw: record succeeds"
major=$(uname -r | cut -d. -f1)
minor=$(uname -r | cut -d. -f2)
if [ "$("$CS" report -i raw.data --json | jq -r .sample_source)" != task-clock ] ||
   [ "$major" -lt 5 ] || { [ "$major" -eq 5 ] && [ "$minor" -lt 18 ]; }; then
	skip "task-clock events that signal by SIGTRAP are not available here" 1
else
	lost=$("$CS" report -i raw.data --json | jq .lost_samples)
	echo "# raw: $lost samples lost of about 200"
	[ "$lost" -ge 100 ]
	ok $? "raw: the samples of the 200 ms blocked by a raw system call are counted lost"
fi
done_testing
