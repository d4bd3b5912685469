#!/bin/sh
# longjmp past instrumented frames: the skipped calls are closed by stack
# repair, the counts stay exact and later calls get the right caller.
. "$(dirname "$0")/lib.sh"

plan 24
build_prog longjmp plain -O2
expected=$(./plain)
for kind in PG FENTRY CYG; do
	for opt in -O0 -O2; do
		eval flags=\$HOOK_FLAGS_$kind
		name="$kind $opt"
		# shellcheck disable=SC2086
		build_prog longjmp "lj" $opt $flags
		out=$(limited "$CS" record -o lj.data -- ./lj 2>/dev/null)
		is "$out" "$expected" "$name: program output unchanged"
		is "$(calls_of lj.data inner)" 50 "$name: inner counted 50 times"
		"$CS" report -i lj.data --json > r.json
		is "$(jq '[.functions[] | select(.name=="middle") | .unwound] | add' r.json)" 50 \
			"$name: every skipped middle closed by stack repair"
		"$CS" graph -i lj.data --json > g.json
		is "$(jq -r '[.arcs[] | select(.callee=="after_jump") | .caller] | unique | join(",")' g.json)" \
			"run_round" "$name: after_jump's caller is run_round, not the abandoned inner"
	done
done
done_testing
