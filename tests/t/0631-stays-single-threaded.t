#!/bin/sh
# A program that never starts a thread stays single-threaded for glibc
# under every kind of recording: a thread made by pthread_create, even one
# of the runtime's that ends at once, switches glibc for good to its paths
# for many threads (every putc takes its stream's lock, malloc its shared
# arenas' paths), and the profile would show those, not the program.  The
# runtime's openers of the main thread's first perf events are made by
# clone() alone: the program ends with __libc_single_threaded still 1,
# whatever recorded it, also when those openers are still at work while it
# runs (a preloaded shim delays them, tests/inject/slow_perf_open.c), and
# those openers are gone by its end.
. "$(dirname "$0")/lib.sh"
needs_shims "$SLOW_PERF_OPEN"

plan 14
build_prog single_threaded plain -O2
build_prog single_threaded hooked -O2 -pg

# check NAME PROGRAM OPTION...: recorded with OPTIONs, the program ran
# unharmed (ROUNDS rounds of its work), single-threaded to its end
ROUNDS=2000000
check() {
	name=$1 prog=$2
	shift 2
	limited "$CS" record -o "$name.data" "$@" -- "./$prog" "$ROUNDS" > out.txt 2> err.txt
	is "$?" 0 "$name: the program runs unharmed"
	is "$(cat out.txt)" "1 1" "$name: glibc's single-threaded to the end, one thread left"
}

check sampled plain
check traced hooked
check count hooked --mode=count
check flight hooked --mode=flight
check time-by-samples hooked --mode=count --time-by=samples
# the program runs about 100 ms of CPU, the openers start after 30
ROUNDS=20000000
export CALLSCOPE_SLOW_PERF_OPEN_MS=30
export LD_PRELOAD="$SLOW_PERF_OPEN"
check "sampled, event opened late" plain
check "traced, switch records opened late" hooked
unset LD_PRELOAD CALLSCOPE_SLOW_PERF_OPEN_MS
done_testing
