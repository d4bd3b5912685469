#!/bin/sh
# Coroutines (swapcontext) under every hook kind: the program runs as it
# does alone, with exact counts, although the thread's calls are spread
# over several stacks (under -pg the suspended frames' return addresses
# are given back before each switch).
. "$(dirname "$0")/lib.sh"

plan 12
build_prog coroutine plain -O2
expected=$(./plain)
for kind in PG FENTRY CYG; do
	for opt in -O0 -O2; do
		eval flags=\$HOOK_FLAGS_$kind
		name="$kind $opt"
		# shellcheck disable=SC2086
		build_prog coroutine co $opt $flags -fno-optimize-sibling-calls -fno-inline
		out=$(limited "$CS" record -o co.data -- ./co 2> err.txt)
		is "$?:$out" "0:$expected" "$name: exits 0 with the output it has alone"
		counts=""
		for fn in driver resume co_body co_step short_body main; do
			counts="$counts $(calls_of co.data $fn)"
		done
		is "$counts" " 1 5 1 5 1 1" "$name: exact counts across the switches"
	done
done
done_testing
