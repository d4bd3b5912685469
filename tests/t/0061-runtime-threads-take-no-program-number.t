#!/bin/sh
# The runtime's threads that open the main thread's first perf events (the
# sampler's, and in a trace the one that tells the thread's waits for a
# CPU) take no descriptor number of the program's while they open them.
# The kernel reserves the event's number before the wait of 8-20 ms it may
# make on a machine where no perf event was open for a second, and a
# program that dup2()s onto that number meanwhile fails with EBUSY (one
# run in nine under load, in 0058).  A preloaded shim makes that wait
# 100 ms of the main thread's CPU time, holding the lowest free number as
# the kernel does (tests/inject/slow_perf_open.c); the program checks all
# along that 3 stays free, then takes it (tests/progs/watch_low_fd.c).
# The runtime keeps its own descriptors above the soft limit, which needs
# room below the hard one.  The control thread, which describes a library
# loaded by a relative path within 250 ms, finds its file in
# /proc/self/maps: the last run dlopen()s one while it watches.
. "$(dirname "$0")/lib.sh"
needs_shims "$SLOW_PERF_OPEN"
fd_limit_with_room 256

plan 7
build_prog watch_low_fd watch -O2
build_prog watch_low_fd watch_pg -O2 -pg
for run in "sample ./watch" "trace ./watch_pg" "count ./watch_pg"; do
	set -- $run
	CALLSCOPE_SLOW_PERF_OPEN_MS=100 CALLSCOPE_SLOW_PERF_OPEN_HOLD=1 LD_PRELOAD=$SLOW_PERF_OPEN \
		limited "$CS" record --mode=$1 -o w.data -- "$2" 300 20000 > out.txt 2> err.txt
	is "$?" 0 "$1: the program never finds 3 taken, and takes it"
	grep -v '^callscope' err.txt | sed 's/^/# /'
	has_samples_or_calls() {
		"$CS" info w.data | grep -Eq "^(samples: +[1-9]|calls: +[1-9])"
	}
	has_samples_or_calls
	ok $? "$1: the run is recorded"
done
echo 'int watched_library(void) { return 1; }' > lib.c
cc -shared -fPIC -o libwatched.so lib.c
CALLSCOPE_SLOW_PERF_OPEN_MS=100 CALLSCOPE_SLOW_PERF_OPEN_HOLD=1 LD_PRELOAD=$SLOW_PERF_OPEN \
	limited "$CS" record -o w.data -- ./watch 600 20000 ./libwatched.so > out.txt 2> err.txt
is "$?" 0 "a library loaded while it watches: the program never finds 3 taken"
grep -v '^callscope' err.txt | sed 's/^/# /'
done_testing
