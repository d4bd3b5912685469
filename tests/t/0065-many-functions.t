#!/bin/sh
# A program of 4400 functions: past the 4096th, a function's id takes a
# three-byte varint in its ENTRY records (the hooks keep each id's bytes
# ready to store), and the id table holds thousands of functions.  Every
# function's count and name must come out exact, for every hook kind,
# in a trace and in a flight recording.
. "$(dirname "$0")/lib.sh"

N=4400
plan 10
awk -v n="$N" 'BEGIN {
	print "volatile unsigned long sink;"
	for (i = 0; i < n; i++)
		printf "__attribute__((noinline)) void f%d(void) { sink += %d; }\n", i, i
	print "int main(void)\n{"
	for (i = 0; i < n; i++)
		printf "\tfor (int k = 0; k < %d; k++)\n\t\tf%d();\n", i % 5 + 1, i
	print "\treturn 0;\n}"
}' > many.c

# exact COUNTS_JSON: how many of the functions f0..f<N-1> have their
# exact count, f<i> called i % 5 + 1 times
exact() {
	jq --argjson n "$N" '[.functions[] | select(.name | test("^f[0-9]+$"))
		| select(.calls == ((.name[1:] | tonumber) % 5 + 1))] | length' "$1"
}

for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	cc -O0 $flags -o "many-$kind" many.c || exit 1
	limited "$CS" record -o "$kind.data" -- "./many-$kind" 2>err.txt
	is "$?" 0 "$kind: recorded"
	"$CS" report -i "$kind.data" --json > "$kind.json"
	is "$(exact "$kind.json")" "$N" "$kind: all $N functions named, each with its exact count"
	is "$(jq .lost_events "$kind.json")" 0 "$kind: nothing lost"
done

limited "$CS" record --mode=flight=4M -o flight.data -- ./many-PG 2>err.txt
"$CS" report -i flight.data --json > flight.json
is "$(exact flight.json)" "$N" "flight recorder: all $N functions named, each with its exact count"
done_testing
