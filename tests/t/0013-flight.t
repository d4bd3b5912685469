#!/bin/sh
# The flight recorder keeps the newest events of each thread: decoding a
# wrapped ring gives exactly the tail of a full trace of the same run, and
# what it overwrote is counted everywhere.
. "$(dirname "$0")/lib.sh"

plan 15
# The calls that began inside the recorded window: a ring starts at a sync
# record, and the calls open there began before it (their earlier callees
# were overwritten), so they are left out of the comparison.
calls() { "$CS" replay -i "$1" --json |
	jq -r '.threads[0].events[] | select(.kind=="call" and (.begun_before | not)) | "\(.function) \(.depth)"'; }
opened() { "$CS" replay -i "$1" --json | jq '[.threads[0].events[] | select(.begun_before)] | length'; }
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
	tail -n "$n" full.txt > want.txt
	cmp -s want.txt ring.txt
	ok $? "$kind: the ring's calls equal the tail of the full trace"
	nopen=$(opened ring.data)
	ok $(( nopen == 0 )) "$kind: the calls open where the ring begins are marked ($nopen)"
	over=$("$CS" info -i ring.data --json | jq .overwritten_events)
	ok $(( over == 0 )) "$kind: info counts the overwritten events ($over)"
	"$CS" report -i ring.data | grep -q "older events were overwritten"
	ok $? "$kind: report says the ring overwrote events"
done
done_testing
