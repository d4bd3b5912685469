#!/bin/sh
# callscope top: each screen holds only what the program did in its window.
. "$(dirname "$0")/lib.sh"

plan 4
start_live_server
# work_a in the first window, work_b only from inside the second on
(sleep 1.3; echo b > mode) &
LIMIT=30 limited "$CS" top "$pid" --interval 1 --count 3 > top.txt
ok $? "top ran three screens and ended"
awk '/^# callscope top/ { n++ } n == 1 && $NF == "work_a" { a = 1 } n == 1 && $NF == "work_b" { b = 1 }
     END { exit !(a && !b) }' top.txt
ok $? "screen 1: work_a, no work_b"
awk '/^# callscope top/ { n++ } n == 3 && $NF == "work_a" { a = 1 } n == 3 && $NF == "work_b" { b = 1 }
     END { exit !(b && !a) }' top.txt
ok $? "screen 3: work_b, and none of the work_a done before the window"
touch quit
wait $rec
is "$?" 7 "the program runs on and exits with its own status"
done_testing
