#!/bin/sh
# The CPU-time sampler signals by SIGTRAP where the kernel can (perf
# events with sigtrap, Linux 5.13 on), as it costs a sample less than
# re-arming the event by hand.  A program's own use of SIGTRAP must not
# change: its handler runs once per signal and is what sigaction() shows,
# a SIGTRAP left at its default action still ends the program, an ignored
# one is still ignored; and the program is sampled throughout.
. "$(dirname "$0")/lib.sh"

plan 6
build_prog sample_robust st -O1

limited "$CS" record -o own.data -- ./st trap > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:handled 50 of 50 own" "own handler: ran once per SIGTRAP raised, and is shown back"
[ "$("$CS" report -i own.data --json | jq .samples)" -ge 20 ]
ok $? "own handler: the program is still sampled"

limited "$CS" record -o dfl.data -- ./st trapdfl > out.txt 2>/dev/null
rc=$?
./st trapdfl > plain.txt 2>/dev/null
plain=$?
is "$rc:$(cat out.txt)" "$plain:" "default action: SIGTRAP still ends the program (status $plain)"
[ "$("$CS" report -i dfl.data --json | jq .samples)" -ge 20 ]
ok $? "default action: the run up to the signal is sampled"

limited "$CS" record -o ign.data -- ./st trapign > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "ignored: the program runs on"
[ "$("$CS" report -i ign.data --json | jq .samples)" -ge 20 ]
ok $? "ignored: the program is still sampled"
done_testing
