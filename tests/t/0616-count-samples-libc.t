#!/bin/sh
# record --mode=count --time-by=samples in code without hooks: a sample
# whose PC lies in libc (strlen, reached by tail_len's tail jump and by
# plain_len's call) is named by libc's function, under the path that
# reached it, as perf names it; the program's functions keep only their
# own time.  Without library-call tracing, nothing else names strlen.
. "$(dirname "$0")/lib.sh"

plan 8
cc -g -O2 -pg -o libc_time "$PROGS/sampled_libc.c"
objdump -d libc_time | awk '/<tail_len>:/,/^$/' | grep -q 'jmp.*<strlen@plt>'
ok $? "tail_len ends by jumping to strlen"

limited "$CS" record --no-libcall --mode=count --time-by=samples -o s.data -- ./libc_time \
	> out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "the program runs unharmed"
"$CS" report -i s.data --json > s.json
self_of() { jq --arg f "$1" '[.functions[] | select(.name == $f) | .self_pct] | add // 0' s.json; }
libc=$(jq '[.functions[] | select(.object | test("/libc[.]so")) | .self_pct] | add // 0' s.json)
tail=$(self_of tail_len)
plain=$(self_of plain_len)
awk -v l="$libc" 'BEGIN { exit !(l >= 80) }'
ok $? "libc's functions carry the time ($libc % self)"
awk -v t="$tail" 'BEGIN { exit !(t <= 10) }'
ok $? "the function that jumped there keeps its own time only ($tail % self)"
awk -v p="$plain" 'BEGIN { exit !(p <= 10) }'
ok $? "so does the one that called it ($plain % self)"
# the tree: strlen's function beneath each caller, with the time
"$CS" tree -i s.data --json > t.json
under=$(jq '[.. | objects | select(.name? == "tail_len" or .name? == "plain_len") | .children[]?
	| select(.name | test("strlen")) | .self_ns] | map(select(. > 0)) | length' t.json)
is "$under" "2" "the tree has strlen's time beneath tail_len and plain_len"
"$CS" graph -i s.data > graph.txt
grep -q 'strlen' graph.txt
ok $? "the call graph names it"

# traced as a library call, strlen's node is the one its samples go to
limited "$CS" record --mode=count --time-by=samples -o l.data -- ./libc_time > /dev/null 2>&1
"$CS" report -i l.data --json > l.json
plain=$(jq '[.functions[] | select(.name == "plain_len") | .self_pct] | add // 0' l.json)
awk -v p="$plain" 'BEGIN { exit !(p <= 10) }'
ok $? "with library calls traced too ($plain % self in plain_len)"
done_testing
