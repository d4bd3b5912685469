#!/bin/sh
# fork: the child writes its own data; --pid selects a process.
. "$(dirname "$0")/lib.sh"

plan 15
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog fork fk -O2 $flags
	limited "$CS" record -o fk.data -- ./fk >/dev/null 2>&1
	"$CS" info -i fk.data --json > i.json
	is "$(jq '.pids | length' i.json)" 2 "$kind: two processes recorded"
	parent=$(jq '.processes[] | select(.image == 0) | .pid' i.json | head -1)
	child=$(jq --argjson p "$parent" '.processes[] | select(.ppid == $p) | .pid' i.json)
	is "$(calls_of fk.data child_work --pid="$child")" 200 "$kind: child's calls in the child"
	is "$(calls_of fk.data parent_work --pid="$child")" 0 "$kind: no parent calls in the child"
	is "$(calls_of fk.data parent_work --pid="$parent")" 300 "$kind: parent's calls intact"
	is "$(calls_of fk.data spawn --pid="$child")" 0 \
		"$kind: frames inherited by the child are not counted twice"
done
done_testing
