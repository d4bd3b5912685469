#!/bin/sh
# callscope live on a sampled program without hooks: its threads run no
# hook, so they take up a stop, start or reset at their next sample.
# While stopped nothing is sampled and nothing is counted lost; after a
# reset the earlier samples are gone.
. "$(dirname "$0")/lib.sh"

plan 12
cc -O1 -g -fno-omit-frame-pointer -o hot "$PROGS/live_hot.c"
mkdir -m 700 xdg
XDG_RUNTIME_DIR="$WORK/xdg"
export XDG_RUNTIME_DIR
LIMIT=60 limited "$CS" record --live -o s.data -- ./hot > /dev/null 2> err.txt &
rec=$!
wait_live_socket
samples() { "$CS" report -i "$1" --json | jq '.samples // 0'; }
lost() { "$CS" report -i "$1" --json | jq '.lost_samples // 0'; }

"$CS" live list | awk -v p="$pid" '$1 == p && $3 == "sample" { f = 1 } END { exit !f }'
ok $? "live list says the program is sampled"
sleep 0.3
"$CS" live "$pid" stop
ok $? "stop"
# the stop is taken up at the thread's next sample, a millisecond of CPU on
sleep 0.1
"$CS" live "$pid" snapshot -o s1.data 2> /dev/null
sleep 0.5
"$CS" live "$pid" snapshot -o s2.data 2> /dev/null
n1=$(samples s1.data)
n2=$(samples s2.data)
[ "$n1" -gt 0 ] && [ "$n2" -eq "$n1" ]
ok $? "no samples are taken while stopped ($n1 then $n2)"
is "$(lost s2.data)" 0 "and none is counted lost"

"$CS" live "$pid" start
sleep 0.5
"$CS" live "$pid" snapshot -o s3.data 2> /dev/null
n3=$(samples s3.data)
[ "$n3" -gt "$n2" ]
ok $? "sampling goes on after start ($n3)"

# a reset while stopped: the next snapshot must hold no sample at all
"$CS" live "$pid" stop && "$CS" live "$pid" reset
ok $? "stop, then reset"
i=0
while :; do
	"$CS" live "$pid" snapshot -o s4.data 2> /dev/null
	n4=$(samples s4.data)
	[ "$n4" -eq 0 ] || [ $i -ge 30 ] && break
	sleep 0.1
	i=$((i + 1))
done
is "$n4" 0 "after the reset no earlier sample is left"
"$CS" live "$pid" start
sleep 0.5
"$CS" live "$pid" snapshot -o s5.data 2> /dev/null
top=$("$CS" report -i s5.data --json |
	jq -r '[.functions[] | select(.self_samples > 0)] | max_by(.self_samples) | .name')
[ "$(samples s5.data)" -gt 0 ] && [ "$top" = hot_loop ]
ok $? "after start the new samples are there, hot_loop on top ($top)"
# top on a sampled program: screens of samples; capture stopped once
# screen 1 is out leaves screen 3 (a whole window later) empty
LIMIT=30 limited "$CS" top "$pid" --interval 1 --count 3 > top.txt &
top=$!
wait_for_line top.txt '^# callscope top'
"$CS" live "$pid" stop
wait $top
ok $? "top ran three screens"
awk '/^# callscope top/ { n++; next } n == 1 && /samples/ { head = 1; next }
     n == 1 && head && NF == 3 { print $3; exit }' top.txt | grep -qx hot_loop
ok $? "top: screen 1 ranks by samples, hot_loop on top"
grep '^# callscope top' top.txt | sed -n 3p | grep -q '; 0 functions ran$'
ok $? "top: screen 3, after the stop, is empty: each screen is its window only"
touch quit
wait $rec
is "$?" 0 "the program exits with its own status"
done_testing
