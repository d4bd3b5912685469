#!/bin/sh
# The hooks' cost is measured once a run: an image exec starts takes the
# figure the run's first process measured (from the staging directory),
# as a fork's child keeps its parent's, instead of measuring for a few
# milliseconds of its own at start and again at exit, which was most of
# what a short child cost under a trace.  A short process does not
# measure again at exit; the first one does.  The chain of fork and
# execs is still recorded whole.
. "$(dirname "$0")/lib.sh"

plan 8
for kind in PG CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog exec_self app -O2 $flags
	# the parent forks a child, which execs itself three times
	limited "$CS" record -q -o a.data -- ./app 3 fork > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:done" "$kind: the program ran through its fork and three execs"
	"$CS" info -i a.data --json > i.json
	root=$(jq '.processes[0].pid' i.json)
	child=$(jq --argjson p "$root" '[.processes[] | select(.pid != $p)][0].pid' i.json)
	is "$(jq -r '[.processes[] | "\(.image):\(.ended_by)"] | join(" ")' i.json)" \
		"0:exit 0:exec 1:exec 2:exec 3:exit" "$kind: the parent and the child's four images, each ended"
	is "$(calls_of a.data leaf --pid="$child"):$(calls_of a.data leaf --pid="$root")" "400:0" \
		"$kind: each of the child's images called leaf() 100 times, the parent none"
	is "$(jq '.processes[0].hook_ns_at_start as $h |
		[.processes[] | .hook_ns_at_start == $h and .hook_ns_at_start > 0] | all' i.json):$(
		jq -c '[.processes[] | select(.ended_by == "exit") | has("hook_ns_at_exit")]' i.json)" \
		"true:[true,false]" \
		"$kind: every image subtracts the first process's figure; only that one measured again at exit"
done
done_testing
