#!/bin/sh
# The hooks call C, and a thread's first hook calls libc through it (its
# files, its perf events), with the stack aligned as the ABI wants it:
# libc, or a malloc a user preloads, may store vector registers to the
# stack with instructions that fault when it is 8 bytes off.  __fentry__
# runs before the function's prologue, so its stack is aligned otherwise
# than mcount's.  A preloaded syscall() (tests/inject/stack_alignment.c),
# which the runtime calls from its hooks, traps on a misaligned stack.
. "$(dirname "$0")/lib.sh"

ALIGN="$BUILD/tests/libstack_alignment.so"
plan 13

# under_check NAME DATA RECORD-ARGS...: the run, with the check preloaded,
# ends normally and counts basic's calls
under_check() {
	name=$1 data=$2
	shift 2
	LD_PRELOAD=$ALIGN limited "$CS" record -o "$data" "$@" > out.txt 2> err.txt
	rc=$?
	is "$rc/$(calls_of "$data" leaf)/$(calls_of "$data" fib)" "0/1000/1973" \
		"$name: the stack is aligned at every call into libc"
}

for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog basic "b-$kind" -O1 $flags
	for mode in trace count flight; do
		under_check "$kind $mode" "$kind-$mode.data" --mode=$mode -- "./b-$kind"
	done
	under_check "$kind count --time-by=samples" "$kind-samples.data" \
		--mode=count --time-by=samples -- "./b-$kind"
done
build_prog basic b-plain -O1
under_check "--patch" patch.data --patch -- ./b-plain
done_testing
