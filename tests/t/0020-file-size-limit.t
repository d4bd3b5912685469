#!/bin/sh
# A file size limit (ulimit -f) smaller than the trace: the runtime stops
# growing the thread's buffer at the limit instead of raising SIGXFSZ in
# the program, keeps what fitted and counts the rest as lost, so recorded
# + lost == what the program did.
# Not sampled beside the trace: the event counts must repeat exactly.
. "$(dirname "$0")/lib.sh"

plan 8
build_prog seq seq -O2 -finstrument-functions
limited "$CS" record --outside-freq=0 -o full.data -- ./seq 3000000 > want.txt 2>/dev/null
all=$("$CS" info -i full.data --json | jq .events)

# 1000 KB: less than one of the runtime's 8 MB chunks
(ulimit -f 1000; limited "$CS" record --outside-freq=0 -o lim.data -- ./seq 3000000 > got.txt 2>/dev/null)
is "$?" 0 "the program is not killed by SIGXFSZ"
cmp -s want.txt got.txt
ok $? "its output is unchanged"
kept=$("$CS" info -i lim.data --json | jq .events)
lost=$("$CS" info -i lim.data --json | jq .lost_events)
ok $(( lost == 0 || kept < 100000 )) "what fitted is kept ($kept events), the rest counted lost ($lost)"
is "$((kept + lost))" "$all" "kept + lost == the events of an unlimited run"
"$CS" report -i lim.data | head -n 1 | grep -q "lost events: $lost$"
ok $? "report shows the loss"
"$CS" replay -i lim.data --last 1 | grep -q "lost events: $lost;"
ok $? "replay shows the loss"

# count mode sizes its node file at once: it takes the nodes that fit
(ulimit -f 100; limited "$CS" record --mode=count -o c.data -- ./seq 1000 >/dev/null 2>&1)
is "$?" 0 "count mode under a 100 KB limit runs"
is "$(calls_of c.data b)" 1000 "and counts every call"
done_testing
