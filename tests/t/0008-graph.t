#!/bin/sh
# The call graph: cycles of mutual recursion, self-recursion shown as
# calls+selfcalls, spontaneous roots, and the JSON arcs.
. "$(dirname "$0")/lib.sh"

plan 21
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog cycle cyc -O2 -fno-optimize-sibling-calls -fno-inline $flags
	limited "$CS" record -o c.data -- ./cyc >/dev/null 2>&1
	"$CS" graph -i c.data > g.txt
	"$CS" graph -i c.data --json > g.json
	grep -q '<cycle 1 as a whole>' g.txt
	ok $? "$kind: first cycle shown as a whole"
	grep -q '<cycle 2 as a whole>' g.txt
	ok $? "$kind: second cycle shown as a whole"
	grep -q '^lost events: 0$' g.txt
	ok $? "$kind: losses shown even when zero"
	is "$(jq '[.arcs[] | select(.caller=="is_even" and .callee=="is_odd") | .count] | add' g.json)" 10 \
		"$kind: arc is_even -> is_odd counted exactly"
	is "$(jq '[.arcs[] | select(.caller=="drive" and .callee=="ping") | .count] | add' g.json)" 3 \
		"$kind: arc drive -> ping counted exactly"
	is "$(jq -r '.cycles[] | select(.members | index("ping")) | .members | sort | join(",")' g.json)" \
		"ping,pong" "$kind: ping and pong form one cycle"
	is "$(jq -r '[.arcs[] | select(.caller=="<spontaneous>") | .callee] | join(",")' g.json)" "main" \
		"$kind: main is the only spontaneous root"
done
done_testing
