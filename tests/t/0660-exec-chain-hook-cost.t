#!/bin/sh
# The hooks' cost is measured once a run: an image exec starts takes the
# figure the run's first process measured (from the staging directory),
# as a fork's child keeps its parent's, instead of measuring for a few
# milliseconds of its own at start and again at exit, which was most of
# what a short child cost under a trace.  A short process does not
# measure again at exit; the first one does, and the lower of its two
# figures is what every process that took its figure subtracts (trace
# mode; count mode took its start figure off in the program).  The chain
# of fork and execs is still recorded whole.
. "$(dirname "$0")/lib.sh"

plan 10
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
# the first process's figure at exit forged to half its start's: the
# lower, for it and for the images that took its figure
build_prog exec_self app -O2 $HOOK_FLAGS_PG
limited "$CS" record -q --outside-freq=0 -o h.data -- ./app 3 fork > /dev/null 2>&1
"$CS" info -i h.data --json > h.json
root=$(jq '.processes[0].pid' h.json)
pair=$(jq --argjson u "$(jq '.ns_per_clock_unit' h.json)" '.processes[0]
	| (.hook_ns_subtracted_inner / 2 * 256 / $u | round) as $in
	| ((.hook_ns_subtracted - .hook_ns_subtracted_inner) / 2 * 256 / $u | round) as $out
	| $in + $out * 4294967296' h.json)
perl "$ROOT/tests/t/session_forge.pl" --section=12 --pid="$root" h.data 8=$pair
"$CS" info -i h.data --json > f.json
is "$(jq '.processes[0] | .hook_ns_at_exit < .hook_ns_at_start / 1.9' f.json)" true \
	"the first process's forged exit figure is the lower"
is "$(jq '.processes[0].hook_ns_subtracted as $h
	| [.processes[] | (.hook_ns_subtracted - $h | fabs) < 0.01] | all' f.json)" true \
	"every image that took its figure subtracts that lower one"
done_testing
