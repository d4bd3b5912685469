#!/bin/sh
# The flight recorder keeps the newest events of each thread: decoding a
# wrapped ring gives exactly the tail of a full trace of the same run, and
# what it overwrote is counted everywhere.
. "$(dirname "$0")/lib.sh"

plan 12
calls() { "$CS" replay -i "$1" --json | jq -r '.threads[0].events[] | select(.kind=="call") | "\(.function) \(.depth)"'; }
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog seq seq -O2 $flags
	limited "$CS" record -o full.data -- ./seq 200000 >/dev/null 2>&1
	limited "$CS" record --mode=flight=64K -o ring.data -- ./seq 200000 >/dev/null 2>&1
	calls full.data > full.txt
	calls ring.data > ring.txt
	n=$(wc -l < ring.txt)
	ok $(( n < 1000 )) "$kind: the ring kept a window of calls ($n)"
	tail -n "$n" full.txt | tail -n "$((n - 2))" > want.txt
	tail -n "$((n - 2))" ring.txt > got.txt
	cmp -s want.txt got.txt
	ok $? "$kind: the ring's calls equal the tail of the full trace"
	over=$("$CS" info -i ring.data --json | jq .overwritten_events)
	ok $(( over == 0 )) "$kind: info counts the overwritten events ($over)"
	"$CS" report -i ring.data | grep -q "older events were overwritten"
	ok $? "$kind: report says the ring overwrote events"
done
done_testing
