#!/bin/sh
# A process whose threads all end after the main thread's pthread_exit
# ends, exit status 0 and stdio flushed, as it does plainly: the
# runtime's own thread must not keep it alive.  Also in a child forked
# by a thread, whose leader ends first (CPython's test_threading).
. "$(dirname "$0")/lib.sh"

plan 14
LIMIT=20
for flags in "$HOOK_FLAGS_PG" "$HOOK_FLAGS_CYG"; do
	build_prog pthread_exit_last app -O2 $flags
	for mode in trace count; do
		limited "$CS" record -q --mode=$mode -o p.data -- ./app > out.txt 2> err.txt
		is "$?:$(cat out.txt)" "0:worker done" "$flags, $mode: the process ends, status 0"
		is "$(calls_of p.data work)" 1000 "$flags, $mode: the last thread's calls are recorded"
		limited "$CS" record -q --mode=$mode -o f.data -- ./app fork > out.txt 2> err.txt
		is "$?:$(cat out.txt | tr '\n' ' ')" "0:worker done child exited 0 " \
			"$flags, $mode: the forked child ends, status 0"
	done
done
build_prog pthread_exit_last plain -O2
limited "$CS" record -q --patch -o p.data -- ./plain > out.txt 2> err.txt
is "$?:$(cat out.txt)" "0:worker done" "--patch: the process ends, status 0"
limited "$CS" record -q --mode=sample -o s.data -- ./plain fork > out.txt 2> err.txt
is "$?:$(cat out.txt | tr '\n' ' ')" "0:worker done child exited 0 " \
	"sample mode: the forked child ends, status 0"
done_testing
