#!/bin/sh
# Exact call counts and time relations for every hook kind at -O0 and -O2.
. "$(dirname "$0")/lib.sh"

plan 66
for opt in -O0 -O2; do
	for kind in PG FENTRY CYG; do
		eval flags=\$HOOK_FLAGS_$kind
		name="$kind $opt"
		# shellcheck disable=SC2086
		build_prog basic "basic-$kind$opt" $opt $flags -fno-optimize-sibling-calls -fno-inline \
			-fno-ipa-sra -fno-partial-inlining -fno-optimize-strlen
		out=$(limited "$CS" record -o "b.data" -- "./basic-$kind$opt" 15 2>err.txt)
		is "$?" 0 "$name: record passes the exit status through"
		is "$out" "1500696" "$name: program output unchanged"
		is "$(calls_of b.data leaf)" 1000 "$name: leaf called 1000 times"
		is "$(calls_of b.data loop)" 1 "$name: loop called once"
		is "$(calls_of b.data fib)" 1973 "$name: fib(15) makes 1973 calls"
		is "$(calls_of b.data helper_static)" 7 "$name: static function resolved and counted"
		is "$(calls_of b.data main)" 1 "$name: main called once"
		"$CS" report -i b.data --json > r.json
		bad=$(jq '[.functions[] | select(.self_ns > .total_ns or .min_ns > .max_ns)] | length' r.json)
		is "$bad" 0 "$name: self <= total and min <= max for every function"
		wall=$("$CS" info -i b.data --json | jq '.threads[0].duration_ns')
		over=$(jq --argjson w "$wall" '[.functions[] | select(.total_ns > $w)] | length' r.json)
		is "$over" 0 "$name: no total exceeds the thread's wall time (recursion counted once)"
		# sum of self equals main's total: every nanosecond is someone's
		sums=$(jq '[([.functions[].self_ns] | add), (.functions[] | select(.name == "main") | .total_ns)] | "\(.[0]) \(.[1])"' -r r.json)
		set -- $sums
		diff=$(( $1 > $2 ? $1 - $2 : $2 - $1 ))
		ok $(( diff * 100 > $2 )) "$name: sum of self ($1) equals main's total ($2) within 1%"
		lost=$(jq .lost_events r.json)
		is "$lost" 0 "$name: nothing lost"
	done
done
done_testing
