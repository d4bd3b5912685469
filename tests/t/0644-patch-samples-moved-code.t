#!/bin/sh
# record --patch: a patched function's first instructions run moved, in
# its trampoline, at addresses no object describes.  A sample there is the
# function's time, as perf charges it on the unpatched binary: the
# recording says where each entry's instructions were moved (MOVED_CODE),
# and every view takes such a PC for the instruction it came from.
#
# fill's time is all in its second instruction, a `rep stosb` inside the
# 5 bytes the entry's jump displaces (tests/progs/patch_moved_entry.c).
. "$(dirname "$0")/lib.sh"

plan 9
cc -O2 -g -o moved "$PROGS/patch_moved_entry.c"
limited "$CS" record -q --patch --sample -o s.data -- ./moved > /dev/null 2> s.err
ok $? "records a patched trace with samples beside it"
"$CS" report -i s.data --json > s.json
samples=$(jq '.samples' s.json)
fill=$(jq '[.functions[] | select(.name == "fill") | .self_samples] | add // 0' s.json)
outside=$(jq '.outside_samples' s.json)
# perf gives fill 99 % of such a run; the rest here is the hooks' own
# code (the trampolines' calls into the runtime), in no object
ok $(( fill * 10 < samples * 8 )) "fill has $fill of the $samples samples, 80 % or more"
ok $(( outside * 10 > samples )) "$outside samples in no object, 10 % or less"
# the trampolines' own instructions are the hooks' cost, not code
# without hooks
unseen=$(jq '.unhooked.unseen' s.json)
ok $(( unseen * 20 > samples )) "$unseen samples in code without hooks, 5 % or less"
# annotate places them on the instruction they were moved from
"$CS" annotate -i s.data fill > a.txt 2>&1
is "$(sed -n 's/^>.* \(rep stos[a-z]*\) .*/\1/p' a.txt)" "rep stosb" \
	"annotate: the hottest instruction is fill's rep stosb"

# a trace's samples beside it: the moved instructions are code the trace
# times (fill's), not code without hooks
limited "$CS" record -q --patch -o t.data -- ./moved > /dev/null 2> t.err
ok $? "records a patched trace"
"$CS" report -i t.data --json > t.json
bg=$(jq '.unhooked.samples' t.json)
unseen=$(jq '.unhooked.unseen' t.json)
ok $(( bg == 0 || unseen * 10 > bg )) "$unseen of $bg samples beside the trace in code without hooks, 10 % or less"
"$CS" report -i t.data > t.txt
ok "$(grep -q 'outside any object' t.txt; [ $? -ne 0 ]; echo $?)" \
	"the report names no time outside any object"

# a forked child runs the trampolines it inherited: its recording says
# where their moved instructions are too
limited "$CS" record -q --patch -o f.data -- ./moved 150000 fork > /dev/null 2> f.err
"$CS" report -i f.data --json > f.json
bg=$(jq '.unhooked.samples' f.json)
unseen=$(jq '.unhooked.unseen' f.json)
ok $(( bg == 0 || unseen * 10 > bg )) \
	"parent and child: $unseen of $bg samples beside the trace in code without hooks, 10 % or less"
done_testing
