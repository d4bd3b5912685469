#!/bin/sh
# A child made by clone() without CLONE_VM on a small stack of its own (as
# googletest's thread-safe death tests make theirs) runs as it runs
# without record, in every hook kind and under --patch: the runtime makes
# it a process of its own, as fork's handlers would, and records its
# calls, also once it execs.
. "$(dirname "$0")/lib.sh"

plan 16
for flags in "$HOOK_FLAGS_PG" "$HOOK_FLAGS_FENTRY" "$HOOK_FLAGS_CYG" patch; do
	build_hook_kind clone_child app "$flags" -O2
	for mode in trace count; do
		limited "$CS" record -q $RECORD_OPT --mode=$mode -o c.data -- ./app > out.txt 2> err.txt
		is "$?:$(cat out.txt)" "0:child exited 7" "$flags, $mode: the child returns 7"
		is "$(calls_of c.data work)" 4 "$flags, $mode: work's 3 calls in the child and 1 in the parent"
	done
done
done_testing
