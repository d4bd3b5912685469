#!/bin/sh
# A thread's calls spread over several stacks, under every hook kind:
# coroutines (swapcontext), and a signal handler on an alternate stack
# above the interrupted one.  The program runs as it does alone, with
# exact counts (under -pg the return addresses of the calls left on the
# other stack are given back before the switch).
. "$(dirname "$0")/lib.sh"

plan 24
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

		# shellcheck disable=SC2086
		build_prog altstack_high alt $opt $flags -fno-optimize-sibling-calls -fno-inline
		out=$(limited "$CS" record -o alt.data -- ./alt 2> err.txt)
		is "$?:$out" "0:9" "$name: a handler on a higher stack: exits 0 with its output"
		is "$(calls_of alt.data victim) $(calls_of alt.data in_handler) $(calls_of alt.data worker)" \
			"3 3 1" "$name: a handler on a higher stack: exact counts"
	done
done
done_testing
