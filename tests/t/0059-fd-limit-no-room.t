#!/bin/sh
# Where the hard descriptor limit is the soft one, the runtime's
# descriptors cannot move above it: they stay where they were made, among
# the program's, and recording works as before, every call counted.
. "$(dirname "$0")/lib.sh"

plan 7
build_prog list_fds lf -O2 -pg
# both limits: ulimit -n sets the soft and the hard one
ulimit -n 64 || { echo "Bail out! cannot set the descriptor limit to 64"; exit 1; }
./lf 1000 2 > want.txt
for mode in trace count; do
	limited "$CS" record -q --mode=$mode -o f.data -- ./lf 100000 2 > got.txt 2> err.txt
	is "$?" 0 "$mode: record works with no room above the limit"
	is "$(calls_of f.data step)" 200000 "$mode: every call counted"
	# the runtime's descriptors are the program's extra ones
	ok "$([ "$(wc -l < got.txt)" -gt "$(wc -l < want.txt)" ]; echo $?)" \
		"$mode: the runtime's descriptors stayed below the limit"
done
is "$(ulimit -Sn)/$(ulimit -Hn)" 64/64 "the limits are the ones the test set"
done_testing
