#!/bin/sh
# A program that lowered its descriptor limit below descriptors it holds
# looks a little past the limit for its own (CPython's
# test_close_fds_when_max_fd_is_lowered looks at every number up to the
# highest it holds): the runtime's descriptors, moved above the limit,
# are not found there either.
. "$(dirname "$0")/lib.sh"

# more than the runtime's first room above the limit, 64 numbers, whose
# upper half it takes (with no more than that, it takes the whole)
fd_limit_with_room 40 65

plan 5
build_prog list_fds lf -O2 -pg
./lf 1000 2 16 > want.txt
for mode in trace count; do
	limited "$CS" record -q --mode=$mode -o f.data -- ./lf 1000 2 16 > got.txt 2> err.txt
	is "$?" 0 "$mode: the program runs"
	is "$(cat got.txt | tr '\n' ' ')" "$(cat want.txt | tr '\n' ' ')" \
		"$mode: 16 numbers past the limit hold none of the runtime's descriptors"
done
is "$(ulimit -Sn)" 40 "the soft limit is the one the test set"
done_testing
