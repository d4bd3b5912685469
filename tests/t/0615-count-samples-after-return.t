#!/bin/sh
# record --mode=count --time-by=samples gives a sample to the path the
# thread is in, read from the shadow stack.  A -pg function's return is
# not seen when it happens, so after quick() returns and main calls
# burn() (no hooks: a library's code) from the same place, the stack still
# holds quick: burn's samples must go to main, whose call of burn it is,
# not to quick, whose return slot burn's return address has taken.
. "$(dirname "$0")/lib.sh"

plan 3
cc -g -O1 -c -o burn.o "$PROGS/sampled_stale.c"
cc -g -O1 -pg -DHOOKED -c -o main.o "$PROGS/sampled_stale.c"
cc -pg -o stale main.o burn.o

limited "$CS" record --mode=count --time-by=samples -o s.data -- ./stale > out.txt 2>/dev/null
is "$?:$(cat out.txt)" "0:ok" "the program runs unharmed"
"$CS" report -i s.data --json > s.json
main=$(jq '[.functions[] | select(.name == "main") | .self_pct] | add // 0' s.json)
quick=$(jq '[.functions[] | select(.name == "quick") | .self_pct] | add // 0' s.json)
awk -v m="$main" 'BEGIN { exit !(m >= 90) }'
ok $? "burn's time is main's ($main % self)"
awk -v q="$quick" 'BEGIN { exit !(q <= 5) }'
ok $? "not quick's, which had returned ($quick % self)"
done_testing
