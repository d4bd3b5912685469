#!/bin/sh
# A short leaf called once per step of a long-running caller whose own
# work keeps the hooks' data out of the cache, as a real program's does:
# a call then costs the hooks much more than the empty function the
# calibration times, and a trace that subtracted that figure left the
# leaf three to five times its own time and the rest to its caller.  The
# samples beside the trace measure the cost in place; the leaf's self
# time per call must come within 5 ns of the time the program measured
# for it without hooks (the hooks cost about 45 ns a call here, so that
# is a ninth of what was taken off), and the caller must keep at least
# half of its own (a busy machine's caches make it slower traced, never
# faster; it was the figure taken off for the leaf that could rob it).
. "$(dirname "$0")/lib.sh"

plan 4
build_prog known_split plain -O2
build_prog known_split traced -O2 -pg

# the leaf's and the caller's ns per step, without hooks
limited ./plain split 2000000 > plain.txt
read -r leaf_plain walk_plain < plain.txt

# three traced runs; the least disturbed is judged, the one that kept
# least in all (a busy machine slows the hooks unevenly: tests/t/0044)
steps=2000000
for i in 1 2 3; do
	limited "$CS" record --outside-freq=4999 -o k$i.data -- ./traced run $steps >/dev/null 2>&1
	"$CS" report -i k$i.data --json |
		jq -r --argjson n $steps '(([.functions[] | select(.name == "leaf") | .self_ns] | add) / $n) as $l |
			(([.functions[] | select(.name == "walk") | .self_ns] | add) / $n) as $w | [$l + $w, $l, $w,
			.overhead_from // "calibration", .overhead_ns_per_call, .unhooked.samples // 0] | @tsv'
done | sort -n | head -1 > best.tsv
read -r _ leaf walk from cost sampled < best.tsv
if [ "$sampled" = 0 ]; then
	# a container's seccomp filter may refuse perf_event_open
	for i in 1 2 3 4; do
		skip "no samples were taken beside the trace"
	done
	exit 0
fi
is "$from" samples "the hooks' cost is measured in place ($cost ns a call)"
ok "$(awk -v t="$leaf" -v p="$leaf_plain" 'BEGIN { print (t != "" && t <= p + 5 ? 0 : 1) }')" \
	"the leaf keeps its own time: $leaf ns a call traced, $leaf_plain without hooks"
ok "$(awk -v t="$walk" -v p="$walk_plain" 'BEGIN { print (t != "" && t >= 0.5 * p ? 0 : 1) }')" \
	"the caller keeps at least half its own: $walk ns a step traced, $walk_plain without hooks"
"$CS" report -i k1.data | grep -q '^# hook overhead subtracted: .*, measured in place by [0-9]* samples in the hooks (±[0-9]* %)'
ok $? "the report's header says the cost was measured in place, and how sure it is"
