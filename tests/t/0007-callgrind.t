#!/bin/sh
# Call counts agree with valgrind's callgrind on the same binary, for
# every hook kind at -O2 with the compiler free to transform the code.
. "$(dirname "$0")/lib.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	echo "1..0 # skip valgrind is not installed"
	exit 0
fi

# callgrind_calls OUT FUNCTION: calls to FUNCTION of ./bin summed over its
# callers (see scripts/callgrind-arcs.awk).
callgrind_calls() {
	awk -v obj=/bin -v what=calls -f "$ROOT/scripts/callgrind-arcs.awk" "$1" |
		awk -v f="$2" '$1 == f { n += $2 } END { print n + 0 }'
}

plan 15
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog basic bin -O2 $flags
	LIMIT=300 limited valgrind --tool=callgrind --separate-recs=1 --callgrind-out-file=cg.out ./bin 15 >/dev/null 2>&1
	limited "$CS" record -o b.data -- ./bin 15 >/dev/null 2>&1
	for fn in main loop leaf fib helper_static; do
		is "$(calls_of b.data $fn)" "$(callgrind_calls cg.out $fn)" "$kind: calls of $fn agree with callgrind"
	done
done
done_testing
