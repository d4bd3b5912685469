#!/bin/sh
# Every view of a sampled run: tree has the sampled call paths, graph the
# sampled arcs, diff compares shares of each run's samples; each JSON
# carries samples; a view with nothing to show says why in one line.
# sample_hot's spin() has 80 % of its samples under path_a, 20 % under
# path_b.
. "$(dirname "$0")/lib.sh"

plan 14
build_prog sample_hot nofp -O2 -fomit-frame-pointer
limited "$CS" record -o a.data -- ./nofp stack 300 > /dev/null 2>&1
limited "$CS" record -o b.data -- ./nofp stack 600 > /dev/null 2>&1
m=10
"$CS" report -i a.data --json > r.json
[ "$(jq -r .sample_source r.json)" = tick-timer ] && m=15
n=$(jq .samples r.json)

"$CS" tree -i a.data --json > t.json
is "$(jq .samples t.json)" "$n" "tree --json carries the run's samples"
is "$(jq .tree.samples t.json)" "$n" "the tree's root has every sample"
# the node of path_a under main, wherever main sits below _start
pa=$(jq '[.. | objects | select(.name == "main") | .children[] | select(.name == "path_a") | .samples] | add // 0' t.json)
awk -v a="$pa" -v n="$n" -v m=$m 'BEGIN { p = 100 * a / n; exit !(p >= 80 - m && p <= 80 + m) }'
ok $? "the path main > path_a has 80 +- $m % of the samples ($pa of $n)"
sp=$(jq '[.. | objects | select(.name == "path_a") | .children[] | select(.name == "spin") | .self_samples] | add // 0' t.json)
spt=$(jq '[.. | objects | select(.name == "path_a") | .children[] | select(.name == "spin") | .samples] | add // 0' t.json)
# A timer may fire as spin returns: the sample then lies on path_a's own
# return site (about one run in forty); anything more is misattribution.
awk -v a="$pa" -v s="$sp" -v t="$spt" 'BEGIN { exit !(s == t && s <= a && a - s <= 2) }'
ok $? "spin under path_a has those samples as its own ($sp self of $spt, path_a $pa)"
"$CS" tree -i a.data > t.txt
grep -q "^# 100% = $n samples, the root's total" t.txt
ok $? "tree's text measures the paths in samples"
grep -Eq '^ +[0-9.]+ +[0-9]+ +[0-9]+ +path_a$' t.txt
ok $? "tree's text shows path_a's samples"

"$CS" graph -i a.data --json > g.json
is "$(jq -r .time_unit g.json)" samples "graph --json of a sampled run counts samples"
arc=$(jq '[.sample_arcs[] | select(.caller == "path_a" and .callee == "spin") | .samples] | add // 0' g.json)
is "$arc" "$spt" "the arc path_a -> spin is weighted by its samples"
"$CS" graph -i a.data > g.txt
grep -q "^unit: timer samples (no call was traced), 100% = $n samples" g.txt
ok $? "graph's text says its unit"

"$CS" diff --json a.data b.data > d.json
d=$(jq '[.functions[] | select(.name == "path_a") | .total_pct_delta] | add' d.json)
raw=$(jq '[.functions[] | select(.name == "path_a") | .total_samples_delta] | add' d.json)
# two runs' shares each wander a few points on a busy machine; a diff of
# raw counts would move path_a by some 80 points
awk -v d="$d" -v r="$raw" 'BEGIN { exit !(d >= -20 && d <= 20 && r > 50) }'
ok $? "diff normalises by each run's samples: path_a's share moved $d points ($raw more samples in the run twice as long)"

# traced calls and samples: both graphs, both sets of tree columns
build_prog sample_hot hooked -O2 -pg
limited "$CS" record --mode=both -o both.data -- ./hooked stack 100 > /dev/null 2>&1
"$CS" graph -i both.data --brief > gb.txt
grep -q "^time unit: " gb.txt && grep -q "^unit: timer samples, 100% = " gb.txt
ok $? "graph of a traced and sampled run shows the calls' graph and the samples'"
"$CS" tree -i both.data --json | jq -e '.calls > 0 and .samples > 0 and
	([.. | objects | select(.name == "path_a") | .calls] | add) == 100 and
	([.. | objects | select(.name == "path_a") | .samples] | add) > 0' > /dev/null
ok $? "tree of a traced and sampled run has calls and samples side by side"

# samples of an object that is never loaded: nothing to show, said once
limited "$CS" record --only=libnothing -o q.data -- ./nofp stack 10 > /dev/null 2>&1
is "$("$CS" tree -i q.data | grep -c '^# nothing to show')" 1 "tree of a run without samples says why in one line"
"$CS" graph -i q.data | grep -q '^(nothing to show'
ok $? "graph of a run without samples says why"
done_testing
