#!/bin/sh
# What a CPU-time sample measures, said as it is: the tick-grained timer
# (--sample-source=timer) counts a thread's time in the kernel on its
# behalf, and so does the task-clock event (the default source) where
# perf_event_paranoid lets it, else user time alone.  A program spends
# about equal CPU time computing (in_user) and in read() of /dev/zero
# (in_kernel, nearly all of it the kernel's): the header and --json name
# the CPU time each run's samples measure, and in_kernel's share is what
# that CPU time makes it, small in user time, about half in user and
# system time.  The run "user" is refused events that count the kernel's
# time, as a user is where perf_event_paranoid is 2
# (tests/inject/user_only_perf.c).
. "$(dirname "$0")/lib.sh"

needs_shims "$USER_ONLY_PERF"
plan 10
build_prog user_and_system uas -O2
for source in perf timer user; do
	preload= sampler=$source
	[ $source = user ] && preload=$USER_ONLY_PERF sampler=perf
	LD_PRELOAD=$preload limited "$CS" record --mode=sample --sample-source=$sampler \
		-o $source.data -- ./uas 300 > /dev/null 2>&1
	"$CS" report -i $source.data --json > $source.json
	measured=$(jq -r .sample_cpu_time $source.json)
	kernel=$(jq '[.functions[] | select(.name == "in_kernel") | .total_pct] | add // 0' \
		$source.json)
	case $measured in
	user)
		header="user CPU time"
		awk -v p="$kernel" 'BEGIN { exit !(p < 25) }'
		ok $? "$source: in user time, in_kernel takes a small share ($kernel %)"
		;;
	user+system)
		header="CPU time, user and system"
		awk -v p="$kernel" 'BEGIN { exit !(p >= 30 && p <= 70) }'
		ok $? "$source: in user and system time, in_kernel takes about half ($kernel %)"
		;;
	*)
		header="?"
		ok 1 "$source: sample_cpu_time is user or user+system, not '$measured'"
		;;
	esac
	"$CS" report -i $source.data | head -1 | grep -q "^# samples: [0-9]* of $header"
	ok $? "$source: the report's header says the samples are of $header"
	"$CS" info -i $source.data | grep -q "^samples: *[0-9]* of $header"
	ok $? "$source: info says it too"
done
is "$(jq -r .sample_cpu_time user.json)" user "refused the kernel's time, the samples are of user time"
done_testing
