#!/bin/sh
# A program that lowered its descriptor limit below descriptors it holds
# looks a little past the limit for its own (CPython's
# test_close_fds_when_max_fd_is_lowered looks at every number up to the
# highest it holds): the runtime's descriptors, moved above the limit,
# are not found there either.
. "$(dirname "$0")/lib.sh"

plan 5
build_prog list_fds lf -O2 -pg
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$hard" -ge 200 ] ||
	{ echo "Bail out! the hard descriptor limit ($hard) leaves no room above 40"; exit 1; }
ulimit -Sn 40 || { echo "Bail out! cannot set the soft descriptor limit to 40"; exit 1; }
./lf 1000 2 16 > want.txt
for mode in trace count; do
	limited "$CS" record -q --mode=$mode -o f.data -- ./lf 1000 2 16 > got.txt 2> err.txt
	is "$?" 0 "$mode: the program runs"
	is "$(cat got.txt | tr '\n' ' ')" "$(cat want.txt | tr '\n' ' ')" \
		"$mode: 16 numbers past the limit hold none of the runtime's descriptors"
done
is "$(ulimit -Sn)" 40 "the soft limit is the one the test set"
done_testing
