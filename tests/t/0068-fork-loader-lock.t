#!/bin/sh
# A child forked while the runtime's control thread walks the loaded
# objects (dl_iterate_phdr, which holds the loader's lock) must not inherit
# that lock held: its first walk -- the runtime's description of the
# child, the program's own -- would wait for ever.  The walk takes a
# microsecond or two, a few times a second, so a fork meets one rarely;
# the preloaded shim (tests/inject/slow_loader_walk.c) holds each of the
# control thread's walks 50 ms, so that one in a few of 200 quick forks
# would land in one.
. "$(dirname "$0")/lib.sh"
needs_shims "$SLOW_LOADER_WALK"

plan 4
build_prog fork_walks app -O2 $HOOK_FLAGS_PG
for mode in trace count; do
	CALLSCOPE_SLOW_LOADER_WALK_MS=50 LD_PRELOAD=$SLOW_LOADER_WALK \
		limited "$CS" record -q --mode=$mode -o w.data -- ./app 200 > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:200 forks, 0 hung" "$mode: no forked child waits for the loader's lock"
	is "$(calls_of w.data objects_seen)" 200 "$mode: every child's call is recorded"
done
done_testing
