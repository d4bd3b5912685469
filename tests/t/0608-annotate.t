#!/bin/sh
# callscope annotate FUNC: source lines and instructions of a sampled
# function with their samples; the hottest instruction marked.
. "$(dirname "$0")/lib.sh"

plan 7
build_prog sample_hot hot -O2
limited "$CS" record -o s.data -- ./hot flat > /dev/null 2>&1
limited "$CS" annotate -i s.data hot > a.txt 2> err.txt
is "$?" 0 "annotate succeeds"
self=$("$CS" report -i s.data --json | jq '[.functions[] | select(.name == "hot") | .self_samples] | add')
head -1 a.txt | grep -q "^# hot in .*/hot: $self self samples"
ok $? "the header gives hot's self samples ($self)"
sum=$(awk '/^# instructions/ { on = 1; next } on && /^[ >] *[0-9]/ { s += substr($0, 2) + 0 } END { print s + 0 }' a.txt)
is "$sum" "$self" "the instructions' samples add up to the function's"
line=$(awk '/^>/ { print $NF; exit }' a.txt | sed 's/.*://')
sed -n "${line}p" "$PROGS/sample_hot.c" | grep -Eq "for \(long i|x \+="
ok $? "the hottest instruction is on hot's loop (line $line)"
grep -q "^ *[0-9]* *[0-9.]*  sample_hot.c:[0-9]*  .*x += (double)i \* 0.5;" a.txt
ok $? "the source lines are shown with their text"
"$CS" annotate -i s.data no_such_function > /dev/null 2> err.txt
rc=$?
[ "$rc" -ne 0 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "no function 'no_such_function'" err.txt
ok $? "an unknown function: one line, non-zero exit ($rc)"
build_prog basic traced -O2 -pg
limited "$CS" record -o t.data -- ./traced > /dev/null 2>&1
"$CS" annotate -i t.data main > /dev/null 2> err.txt
rc=$?
[ "$rc" -ne 0 ] && grep -q "holds no samples; record with --sample" err.txt
ok $? "a recording without samples: says how to get them ($rc)"
done_testing
