#!/bin/sh
# callscope live: a server-like program is listed, stopped, snapshotted,
# started again; each snapshot holds what the program did while capture
# was on and nothing of what it did while off; the program runs on and
# exits with its own status.
. "$(dirname "$0")/lib.sh"

plan 22
start_live_server
[ -S "$sock" ]
ok $? "the control socket exists"
is "$(stat -c %a "$sock") $(stat -c %a xdg/callscope)" "600 700" "socket 0600 in a 0700 directory"

"$CS" live list > list.txt
awk -v p="$pid" '$1 == p && $2 == "./srv" && $3 == "trace" && $4 == "on" { f = 1 } END { exit !f }' list.txt
ok $? "live list shows the program, its mode and state"
"$CS" live "$pid" status > st.txt
grep -qx 'state=on' st.txt && grep -qx "pid=$pid" st.txt && grep -q '^events=[1-9]' st.txt
ok $? "live status: on, with events"

"$CS" live "$pid" stop
ok $? "stop"
"$CS" live "$pid" stop 2> again.txt
is "$?" 1 "stop when stopped is an error"
grep -q 'already off' again.txt
ok $? "... that says why"
grep -qx 'state=off' "$("$CS" live "$pid" status > st2.txt; echo st2.txt)"
ok $? "status says off"

# work_b only while stopped, then a snapshot
echo b > mode
sleep 1
"$CS" live "$pid" snapshot -o s1.data 2> /dev/null
ok $? "snapshot while stopped"
a1=$(calls_of s1.data work_a)
b1=$(calls_of s1.data work_b)
[ "$a1" -gt 0 ] && [ "$b1" -eq 0 ]
ok $? "snapshot 1 has work_a ($a1) and none of the work_b done while stopped ($b1)"
"$CS" info -i s1.data > si.txt
grep -qx 'exit:         none yet: a snapshot of the program running' si.txt &&
	grep -q "^  pid $pid .* (still running)$" si.txt
ok $? "info: a snapshot has no exit yet, its process still runs"
"$CS" replay -i s1.data | grep -qx '\*\*\* the process was still running when the snapshot was taken \*\*\*'
ok $? "replay ends the snapshot's process as still running"

"$CS" live "$pid" start
ok $? "start"
sleep 1
"$CS" live "$pid" snapshot -o s2.data 2> /dev/null
b2=$(calls_of s2.data work_b)
a2=$(calls_of s2.data work_a)
[ "$b2" -gt 0 ] && [ "$a2" -eq "$a1" ]
ok $? "snapshot 2 adds work_b ($b2) done after start, work_a unchanged ($a2)"

"$CS" live "$pid" flush
ok $? "flush"

# reset while stopped: what came before is forgotten.  The program idles
# first and says when it does, so no work runs after the reset: once its
# thread has noticed the reset (at its next hook, within a round), a
# snapshot must hold none of the earlier work, however the machine
# schedules it.  Then capture starts again and new work is counted.
echo i > mode
wait_seen i
"$CS" live "$pid" stop && "$CS" live "$pid" reset
ok $? "stop, then reset"
i=0
while :; do
	"$CS" live "$pid" snapshot -o s3.data 2> /dev/null
	left="$(calls_of s3.data work_a) $(calls_of s3.data work_b)"
	[ "$left" = "0 0" ] || [ $i -ge 30 ] && break
	sleep 0.1
	i=$((i + 1))
done
is "$left" "0 0" "after a reset none of the earlier work is left"
"$CS" live "$pid" start
echo b > mode
wait_seen b
sleep 0.5
"$CS" live "$pid" snapshot -o s4.data 2> /dev/null
a4=$(calls_of s4.data work_a)
b4=$(calls_of s4.data work_b)
[ "$a4" -eq 0 ] && [ "$b4" -gt 0 ]
ok $? "after the reset the new work_b is counted ($b4 calls, work_a $a4)"
"$CS" live "$pid" bogus 2> /dev/null
is "$?" 2 "an unknown live command is a usage error"

touch quit
wait $rec
is "$?" 7 "record passes the program's own exit status"
is "$(cat out.txt)" "rounds many" "the program ran to its end"
[ ! -e "$sock" ]
ok $? "the socket is removed at exit"
done_testing
