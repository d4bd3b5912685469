#!/bin/sh
# The sampler in hard cases: a 3000-deep stack (cut, and counted as
# truncated), fork (both processes sampled), exec (both images sampled,
# and told apart), samples that arrive inside the tracing hooks (their
# cost: counted apart and shown), a program that handles every
# real-time signal itself (its handlers still run exactly once per signal),
# a program that blocks every signal.  None may crash or change the
# program's output.
. "$(dirname "$0")/lib.sh"

plan 13
build_prog sample_robust rb -O1 -fno-omit-frame-pointer
limited "$CS" record -o deep.data -- ./rb deep > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "deep recursion: the program runs unharmed"
"$CS" report -i deep.data --json > d.json
n=$(jq .samples d.json)
t=$(jq .truncated_stacks d.json)
[ "$n" -gt 0 ] && [ "$t" -ge $((n * 9 / 10)) ]
ok $? "deep recursion: the stacks are counted as truncated ($t of $n)"
# counted once per frame, it would pass 100 by far; a sample or two may
# fall in main before or after the recursion
t=$(jq '[.functions[] | select(.name == "descend") | .total_pct] | add // 0' d.json)
awk -v t="$t" 'BEGIN { exit !(t >= 95 && t <= 100.0001) }'
ok $? "deep recursion: descend counted once per sample, not once per frame ($t)"

limited "$CS" record -o fork.data -- ./rb fork > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "fork: the program runs unharmed"
is "$("$CS" report -i fork.data --thread --json | jq '[.threads[] | select((.samples // 0) > 10)] | length')" \
	2 "fork: parent and child are both sampled"

limited "$CS" record -o exec.data -- ./rb exec > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "exec: the program runs unharmed"
"$CS" report -i exec.data --thread --json > ex.json
p=$(jq '[.threads[] | select(.image == 1)][0].pid // 0' ex.json)
before=$(jq --argjson p "$p" '[.threads[] | select(.pid == $p and .image == 0)][0].samples // 0' ex.json)
after=$(jq --argjson p "$p" '[.threads[] | select(.pid == $p and .image == 1)][0].samples // 0' ex.json)
all=$("$CS" report -i exec.data --pid "$p" --json | jq '.samples // 0')
[ "$before" -gt 10 ] && [ "$after" -gt 10 ] && [ $((before + after)) -eq "$all" ]
ok $? "exec: both images sampled, each thread profile its own ($before + $after = $all)"

build_prog sample_robust rbpg -O1 -pg
limited "$CS" record --sample -o hooks.data -- ./rbpg calls > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "samples in the hooks: the program runs unharmed"
"$CS" report -i hooks.data --json > h.json
in_hooks=$(jq '.hook_samples // 0' h.json)
"$CS" report -i hooks.data | grep -q "^# in the hooks: $in_hooks samples"
shown=$?
[ "$in_hooks" -gt 0 ] && [ $shown -eq 0 ]
ok $? "samples in the hooks: their cost, counted ($in_hooks beside $(jq '.samples' h.json) kept) and shown"

limited "$CS" record -o rt.data -- ./rb rtsig > out.txt 2>/dev/null
rc=$?
n=$(sed -n 's/^handled \([0-9]*\) of \([0-9]*\)$/\1 \2/p' out.txt)
set -- $n
[ "$rc" -eq 0 ] && [ -n "$n" ] && [ "$1" = "$2" ]
ok $? "own real-time handlers: each ran once per signal raised ($(cat out.txt))"
[ "$("$CS" report -i rt.data --json | jq .samples)" -ge 20 ]
ok $? "own real-time handlers: the program is still sampled"

limited "$CS" record -o blk.data -- ./rb block > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "all signals blocked: the program runs unharmed"
"$CS" report -i blk.data > blk.txt
grep -q "^# lost samples: " blk.txt
ok $? "all signals blocked: the report still reads and shows lost samples"
done_testing
