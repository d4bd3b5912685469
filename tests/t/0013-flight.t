#!/bin/sh
# The flight recorder keeps the newest events of each thread: decoding a
# wrapped ring gives exactly the tail of a full trace of the same run, and
# what it overwrote is counted everywhere.
. "$(dirname "$0")/lib.sh"

plan 31
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
	is "$("$CS" replay -i ring.data --json | jq '[.threads[].overwritten_events] | add')" "$over" \
		"$kind: replay counts the same overwritten events"
	# every event the full run wrote is either kept or counted as
	# overwritten; the ring also wrote its periodic SYNC records, one
	# per eighth of the ring, so the ring's count is a little higher
	kept=$("$CS" info -i ring.data --json | jq .events)
	all=$("$CS" info -i full.data --json | jq .events)
	ok $(( kept + over < all || kept + over > all + all / 100 )) \
		"$kind: kept ($kept) + overwritten ($over) covers the full run's $all events"
	limited "$CS" record --mode=flight=64K -o small.data -- ./seq 10 >/dev/null 2>&1
	is "$("$CS" info -i small.data --json | jq .overwritten_events)" 0 \
		"$kind: a ring that never wrapped overwrote nothing"
	"$CS" report -i small.data | grep -q "overwritten"
	ok $(( $? == 0 )) "$kind: and the report does not say it did"
done
# sizes are parsed before the program is looked for: a good one gets as far
# as the missing program (exit 1), a bad one is a usage error (exit 2)
for size in 1G:1 64k:1 2G:2 17592186044417M:2; do
	"$CS" record --mode=flight=${size%%:*} -o x.data -- ./no-such-program >/dev/null 2>&1
	is "$?" "${size#*:}" "--mode=flight=${size%%:*} is $([ "${size#*:}" = 1 ] && echo accepted || echo refused)"
done
done_testing
