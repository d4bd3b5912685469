#!/bin/sh
# callscope top leaves out a function that did nothing in the window,
# however the snapshots' clock rates differ.  Each snapshot converts the
# TSC with the rate it measures from its own pair of clock readings; on a
# loaded machine one pair is read microseconds apart now and then, and a
# function that ran for seconds before the window seemed to gain
# thousands of ns in it.  The shim makes every pair come later than the
# one before (tests/inject/clock_creep.c), so each rate is higher.
. "$(dirname "$0")/lib.sh"
needs_shims "$CLOCK_CREEP"

plan 4
start_live_server
# a second of work_a, then work_b alone before top takes its first snapshot
sleep 1
echo b > mode
wait_seen b
LD_PRELOAD="$CLOCK_CREEP" LIMIT=30 limited "$CS" top "$pid" --interval 1 --count 2 > top.txt
ok $? "top ran two screens and ended"
is "$(grep -c '^# callscope top' top.txt)" 2 "two screens"
is "$(awk '$NF == "work_b"' top.txt | wc -l)" 2 "work_b, at work throughout, is on each screen"
is "$(awk '$NF == "work_a" { print $(NF - 1) }' top.txt | tr '\n' ' ')" "" \
	"work_a, idle since before the first snapshot, is on no screen (got: its calls on each screen it is on)"
touch quit
wait $rec
done_testing
