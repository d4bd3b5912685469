#!/bin/sh
# The runtime keeps its descriptors (process file, thread buffers, control
# socket, sampling events, counters) at or above the program's soft
# RLIMIT_NOFILE: a program that lists every descriptor below
# sysconf(_SC_OPEN_MAX) lists under record exactly what it lists plainly
# (and that limit), in every mode and with a second thread running while
# it looks (each thread has a buffer, an event when sampled, counters
# with -e), and in a child forked then (which makes files of its own and
# must not keep its copies of the parent's where it can see them), and
# with 100 threads.
. "$(dirname "$0")/lib.sh"

fd_limit_with_room 256

plan 15
build_prog list_fds lf -O2 -pg
./lf 1000 2 > want.txt
for mode in trace count sample "both -e page-faults"; do
	for threads in 1 2; do
		# shellcheck disable=SC2086
		limited "$CS" record -q --mode=$mode -o f.data -- ./lf 100000 $threads > got.txt 2> err.txt
		is "$?/$(tr '\n' ' ' < got.txt)" "0/$(tr '\n' ' ' < want.txt)" \
			"$mode, $threads thread(s): the program finds its own descriptors only"
	done
done
is "$(calls_of f.data step)" 200000 "both threads' calls counted"
for mode in sample count trace; do
	limited "$CS" record -q --mode=$mode -o f.data -- ./lf 100000 2 fork > got.txt 2> err.txt
	is "$?/$(tr '\n' ' ' < got.txt)" "0/$(tr '\n' ' ' < want.txt)" \
		"$mode, a forked child: it finds its own descriptors only"
done
is "$(calls_of f.data step)" 300000 "the child's calls counted with its parent's"
# more descriptors than the first room above the limit holds (64): the
# moves go on with more room
for mode in trace sample; do
	limited "$CS" record -q --mode=$mode --chunk=64K -o f.data -- ./lf 1000 100 > got.txt 2> err.txt
	is "$?/$(tr '\n' ' ' < got.txt)" "0/$(tr '\n' ' ' < want.txt)" \
		"$mode, 100 threads: the program finds its own descriptors only"
done
done_testing
