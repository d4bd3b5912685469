#!/bin/sh
# The profiled program behaves as it does alone: same output for code that
# passes arguments in every register class, under every hook kind and
# optimization level; and where the thread's buffer grows under a hook
# (from 64K, or every 64K with --chunk), whose growth calls libc while the
# vector registers hold the function's arguments or its result.
. "$(dirname "$0")/lib.sh"

plan 18
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

build_prog floats plain -O2
expected=$(./plain 20000)
deep=$(./plain 20000 6000)
for kind in PG FENTRY; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog floats bin -O2 $flags
	for chunk in "" --chunk=64K; do
		# shellcheck disable=SC2086
		is "$(limited "$CS" record $chunk -o x.data -- ./bin 20000 2>/dev/null)" "$expected" \
			"floats $kind -O2, 120 000 calls ${chunk:-(windows from 64K)}: output unchanged"
	done
	# 6000 call paths: count mode's nodes are reserved again and again
	# inside the calls, with a double live in each
	is "$(limited "$CS" record --mode=count -o x.data -- ./bin 20000 6000 2>/dev/null)" "$deep" \
		"floats $kind -O2, count mode, 6000 paths: output unchanged"
done
done_testing
