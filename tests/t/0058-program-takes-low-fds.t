#!/bin/sh
# A program that closes every descriptor below sysconf(_SC_OPEN_MAX) but
# 0-2 and dup2()s a file of its own onto 3..15 takes none of the runtime's:
# they sit above the soft RLIMIT_NOFILE, so a trace whose buffer grows
# long after that keeps every call, and the program's file holds what it
# wrote.
. "$(dirname "$0")/lib.sh"

fd_limit_with_room 256

plan 8
build_prog dup2_low low -O2 -pg
./low 400000 > want.txt
cp low_fds.txt want_fds.txt
for mode in trace count; do
	# --chunk: the buffer must grow after the program took the numbers
	limited "$CS" record --mode=$mode --chunk=64K -o l.data -- ./low 400000 > got.txt 2> err.txt
	is "$?/$(cmp -s want.txt got.txt && echo same)" "0/same" "$mode: the program runs as without the profiler"
	is "$(cmp -s want_fds.txt low_fds.txt && echo same)" same "$mode: its file holds what it wrote through 3..15"
	is "$(calls_of l.data step)" 400000 "$mode: every call counted"
	is "$("$CS" info l.data | sed -n 's/^lost events: *//p')" 0 "$mode: nothing lost"
done
done_testing
