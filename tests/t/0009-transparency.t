#!/bin/sh
# The profiled program behaves as it does alone: same output for code that
# passes arguments in every register class, under every hook kind and
# optimization level.
. "$(dirname "$0")/lib.sh"

plan 12
for prog in floats basic; do
	build_prog $prog plain -O2
	expected=$(./plain)
	for kind in PG FENTRY CYG; do
		for opt in -O0 -O2; do
			eval flags=\$HOOK_FLAGS_$kind
			# shellcheck disable=SC2086
			build_prog $prog bin $opt $flags
			is "$(limited "$CS" record -o x.data -- ./bin 2>/dev/null)" "$expected" \
				"$prog $kind $opt: output unchanged"
		done
	done
done
done_testing
