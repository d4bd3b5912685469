#!/bin/sh
# The call-path tree against a program with known call paths, under every
# hook kind at -O0 and -O2: calls per path, recursion as nested nodes, the exact sums
# (self over the tree = the root's total; total = self + children at every
# node), agreement with the flat profile, --focus, --threshold, --depth,
# --sort and --tid.
# Library calls are left out: the paths are the program's own.
. "$(dirname "$0")/lib.sh"

# at(PATH): the node reached from the root through the names in PATH.
AT='def at($p): reduce $p[] as $n (.tree; (.children[] | select(.name == $n)));'
# calls_at FILE NAME...: the calls of that path, 0 if it is missing.
calls_at() {
	f=$1
	shift
	jq -r "$AT [at(\$ARGS.positional) | .calls] | add // 0" --args "$@" < "$f"
}
nodes() { jq '[.. | objects | select(has("children"))] | length' "$1"; }

plan 102
for opt in -O0 -O2; do
for kind0 in PG FENTRY CYG; do
	kind="$kind0 $opt"
	eval flags=\$HOOK_FLAGS_$kind0
	# shellcheck disable=SC2086
	build_prog tree_paths tp $opt $flags -fno-optimize-sibling-calls -fno-inline \
		-fno-ipa-sra -fno-ipa-cp -fno-ipa-icf -fno-partial-inlining
	limited "$CS" record --no-libcall -o t.data -- ./tp >/dev/null 2>&1
	limited "$CS" tree -i t.data --json > t.json
	is "$?" 0 "$kind: tree --json runs"

	got=""
	for p in "main work_a" "main work_a shared" "main work_b" "main work_b shared" \
		"main work_b shared leaf" "main rec" "main rec rec" "main rec rec rec" \
		"main rec rec rec rec" "main rec rec rec rec leaf" "main ping" "main ping pong" \
		"main ping pong ping" "main ping pong ping pong" "worker" "worker shared"; do
		# shellcheck disable=SC2086
		got="$got $(calls_at t.json $p)"
	done
	is "$got" " 3 6 5 5 5 1 1 1 1 1 1 1 1 1 1 10" "$kind: calls of every known path"
	is "$(nodes t.json)" 18 "$kind: no other paths (18 nodes with the root)"
	is "$(calls_at t.json main rec rec rec rec rec)" 0 "$kind: recursion nests exactly 4 deep"

	set -- $(jq -r '"\([.. | objects | select(has("children")) | .self_ns] | add) \(.tree.total_ns)"' t.json)
	[ "${2:-0}" -gt 0 ] && [ "$1" = "$2" ]
	ok $? "$kind: sum of self over the tree ($1) equals the root's total ($2)"
	is "$(jq '[.. | objects | select(has("children")) |
		select(.total_ns != .self_ns + ([.children[].total_ns] | add // 0))] | length' t.json)" 0 \
		"$kind: total = self + children's totals at every node"

	"$CS" report -i t.data --json > r.json
	jq -r '[.. | objects | select(has("object"))] | group_by(.name)[] |
		"\(.[0].name) \(map(.calls) | add) \(map(.self_ns) | add)"' t.json | sort > from-tree
	jq -r '.functions[] | "\(.name) \(.calls) \(.self_ns)"' r.json | sort > from-flat
	[ -s from-tree ] && cmp -s from-tree from-flat
	ok $? "$kind: per function, the tree's calls and self add up to the flat profile's"
	if ! cmp -s from-tree from-flat; then diff from-tree from-flat | sed 's/^/# /'; fi

	# --focus merges the paths of shared: 6 + 5 + 10 outermost calls
	"$CS" tree -i t.data --json --focus shared > f.json
	is "$(jq -r '"\(.tree.name) \(.tree.calls) \(.tree.children | map("\(.name):\(.calls)") | join(","))"' f.json)" \
		"shared 21 leaf:5" "$kind: --focus shared merges its three paths"
	is "$(jq '.tree.total_ns' f.json)" "$(jq '.functions[] | select(.name=="shared") | .total_ns' r.json)" \
		"$kind: the focused root's total is the function's total"
	"$CS" tree -i t.data --json --focus tp:rec > f.json
	is "$(calls_at f.json rec rec rec) $(calls_at f.json rec rec rec leaf) $(jq .tree.calls f.json)" "1 1 1" \
		"$kind: --focus OBJECT:NAME keeps a recursive function's nested calls nested"

	# --threshold and --depth hide nodes and count them
	"$CS" tree -i t.data --json --threshold 1 > h.json
	is "$(jq '[.. | objects | select(has("children")) | select(.pct < 1)] | length' h.json)" 0 \
		"$kind: --threshold 1 shows no path below 1% of the root"
	is "$(( $(nodes h.json) + $(jq .hidden_below_threshold h.json) ))" 18 \
		"$kind: --threshold: shown + hidden = all paths"
	"$CS" tree -i t.data --json --depth 2 > d.json
	is "$(nodes d.json) $(jq .hidden_below_depth d.json)" "8 10" \
		"$kind: --depth 2 shows the root and two levels, and counts the rest"

	"$CS" tree -i t.data --json --sort=calls > s.json
	is "$(jq '[.. | objects | select(has("children")) | .children | map(.calls) |
		select(. != (sort | reverse))] | length' s.json)" 0 \
		"$kind: --sort=calls orders every node's children by calls"
	is "$("$CS" tree -i t.data --json --sort=name |
		jq -r '.tree.children[] | select(.name=="main") | .children | map(.name) | join(",")')" \
		"ping,rec,work_a,work_b" "$kind: --sort=name orders children by name"
	tid=$("$CS" info -i t.data --json | jq '[.threads[] | select(.calls == 11)][0].tid')
	is "$("$CS" tree -i t.data --json --tid="$tid" | jq -r '.tree.children | map(.name) | join(",")')" \
		"worker" "$kind: --tid shows that thread's tree alone"

	"$CS" tree -i t.data --threshold 50 > t.txt
	grep -q '^# [0-9]* call paths below 50.00% of the root hidden (--threshold)$' t.txt
	ok $? "$kind: the text says how many paths the threshold hid"
done
done
done_testing
