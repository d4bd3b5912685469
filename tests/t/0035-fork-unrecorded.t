#!/bin/sh
# A forked child the runtime cannot record (it could not make the child's
# process file: privileges dropped, no space) runs on unrecorded: it lets
# go of its parent's buffers and returns through the frames it inherited,
# in every hook kind, every mode and under --patch, instead of dying.
. "$(dirname "$0")/lib.sh"

plan 13
for flags in "$HOOK_FLAGS_PG" "$HOOK_FLAGS_FENTRY" "$HOOK_FLAGS_CYG"; do
	build_prog fork_unrecorded app -O2 $flags
	for mode in trace count flight; do
		limited "$CS" record --mode=$mode -o f.data -- ./app > out.txt 2> /dev/null
		is "$?:$(cat out.txt)" "0:child exited 0" "$flags, $mode: the child exits 0"
	done
done
build_prog fork_unrecorded plain -O2
for mode in trace count; do
	limited "$CS" record --patch --mode=$mode -o f.data -- ./plain > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:child exited 0" "--patch, $mode: the child exits 0"
done
grep -q "cannot create the process file" err.txt
ok $? "the child's lost recording is said"
is "$(calls_of f.data work)" 1 "the parent's calls are recorded"
done_testing
