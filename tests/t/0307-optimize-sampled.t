#!/bin/sh
# A sampled recording of the release build itself is enough to lay it out,
# with no instrumented build: the call graph comes from the stacks (each
# sample counts for every caller -> callee pair on its stack) and the heat
# from the samples in each function.  clones' main calls step, which
# calls scale.constprop.0, for the whole run.
. "$(dirname "$0")/lib.sh"

plan 6

build_prog clones plain -O2 -ffunction-sections -Wl,-Map=plain.map
LIMIT=120 limited "$CS" record --mode=sample --stack=dwarf --freq=2000 -o s.data -- \
	./plain 40000000 >/dev/null 2>err.txt
ok $? "sampled the release build"
"$CS" optimize -i s.data --map plain.map -o s >out.txt 2>err.txt
ok $? "laid it out from the samples"
grep -q '^# cache .*; heat: samples$' s.lor
ok $? "the .lor says the heat is samples"
n=$(awk '$1 == "step" && $2 == "scale.constprop.0" { print $3 }' s.cg)
[ "${n:-0}" -gt 0 ]
ok $? "the stacks gave the arc step -> scale.constprop.0 (${n:-none} samples)"
is "$(grep -x -e step -e scale.constprop.0 s.order | tr '\n' ' ')" "step scale.constprop.0 " \
	"the callee follows its caller"
grep -q 'plain: [0-9]* hot functions' out.txt
ok $? "the summary counts the hot functions"
done_testing
