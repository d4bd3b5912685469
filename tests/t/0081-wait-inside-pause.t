#!/bin/sh
# A wait for a CPU inside the runtime's own pause (a buffer's growth) is
# left out of the thread's clock once, with the pause: taken off again as
# a wait, it ran the clock backwards, and the calls after it got no time
# (fin() 0 ns, 300 000 calls of leaf() 40 us).  A preloaded fstatvfs()
# (tests/inject/preempt_in_grow.c) yields the CPU for 5 ms at each growth
# to a busy process pinned to the same CPU.
. "$(dirname "$0")/lib.sh"

command -v taskset > /dev/null || { echo "1..0 # SKIP taskset is not installed"; exit 0; }
plan 3
build_prog exit_open p -O2 -pg
cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')
taskset -c "$cpu" sh -c 'while :; do :; done' &
spinner=$!
LD_PRELOAD="$BUILD/tests/libpreempt_in_grow.so" limited taskset -c "$cpu" \
	"$CS" record -o w.data -- ./p 300000 > /dev/null 2>&1
rc=$?
kill "$spinner"
is "$rc" 0 "the program ran with waits inside the buffer's growths"
"$CS" info -i w.data | grep -q "waited for a CPU [1-9][0-9]* %"
ok $? "its waits for a CPU were seen"
"$CS" report -i w.data --json > r.json
leaf=$(jq '[.functions[] | select(.name == "leaf") | .self_ns] | add' r.json)
fin=$(jq '[.functions[] | select(.name == "fin") | .self_ns] | add' r.json)
ok $(( leaf < 150000 || fin == 0 )) \
	"the clock ran on after the growths: leaf's 300 000 calls $leaf ns, fin $fin ns"
done_testing
