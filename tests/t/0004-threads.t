#!/bin/sh
# Threads: each has its own stream; reports merge them, --thread splits
# them and --tid selects one.
. "$(dirname "$0")/lib.sh"

plan 15
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog threads th -O2 $flags
	limited "$CS" record -o th.data -- ./th >/dev/null 2>&1
	is "$(calls_of th.data work)" 20001 "$kind: work counted over all threads"
	"$CS" info -i th.data --json > i.json
	is "$(jq '.threads | length' i.json)" 5 "$kind: five threads recorded"
	is "$(jq '[.threads[] | select(.calls == 5001)] | length' i.json)" 4 \
		"$kind: each worker thread has its own 5000 work + thread_main calls"
	tid=$(jq '[.threads[] | select(.calls == 5001)][0].tid' i.json)
	is "$(calls_of th.data work --tid="$tid")" 5000 "$kind: --tid selects one thread"
	is "$("$CS" report -i th.data --thread --json | jq '.threads | length')" 5 \
		"$kind: --thread gives one profile per thread"
done
done_testing
