#!/bin/sh
# callscope top: each screen holds only what the program did in its window.
. "$(dirname "$0")/lib.sh"

plan 5
start_live_server
# The program switches from work_a to work_b only once screen 1 is out, so
# however late a loaded machine starts top, screen 1 holds work_a alone;
# the switch then falls in window 2 (or 3 if the poll is slow), and
# screen 4 holds work_b alone.
LIMIT=30 limited "$CS" top "$pid" --interval 1 --count 4 > top.txt &
top=$!
wait_for_line top.txt '^# callscope top'
echo b > mode
wait $top
ok $? "top ran four screens and ended"
is "$(grep -c '^# callscope top' top.txt)" 4 "four screens"
awk '/^# callscope top/ { n++ } n == 1 && $NF == "work_a" { a = 1 } n == 1 && $NF == "work_b" { b = 1 }
     END { exit !(a && !b) }' top.txt
ok $? "screen 1: work_a, no work_b"
awk '/^# callscope top/ { n++ } n == 4 && $NF == "work_a" { a = 1 } n == 4 && $NF == "work_b" { b = 1 }
     END { exit !(b && !a) }' top.txt
ok $? "screen 4: work_b, and none of the work_a done before the window"
touch quit
wait $rec
is "$?" 7 "the program runs on and exits with its own status"
done_testing
