#!/bin/sh
# A frame-pointer walk must not follow rbp out of the stack, whatever word
# it holds.  A saved frame pointer of -8 once passed the stack check, its
# end wrapping around to 8, and the sampler's handler read address 0: the
# program died of SIGSEGV (ninja built by clang with
# -finstrument-functions-after-inlining, recorded with --mode=both, every
# time).  Here a loop runs with rbp at a frame whose saved rbp is -8.
. "$(dirname "$0")/lib.sh"

plan 4
build_prog wild_frame_pointer w -O2 -fno-omit-frame-pointer
for stack in fp auto; do
	limited "$CS" record -q --mode=sample --stack=$stack -o $stack.data -- ./w 300000000
	is "$?" 0 "--stack=$stack: the program runs to its end"
	samples=$("$CS" report -i $stack.data --json |
		jq '[.functions[] | select(.name == "spin_on_wild_chain") | .self_samples] | add // 0')
	[ "$samples" -gt 0 ]
	ok $? "--stack=$stack: its loop is sampled ($samples samples)"
done
done_testing
