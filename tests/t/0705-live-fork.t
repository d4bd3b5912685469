#!/bin/sh
# fork() without exec: the child serves a control socket of its own, its
# capture switch is its own, and a snapshot holds both processes.
. "$(dirname "$0")/lib.sh"

plan 7
build_prog live_fork fk -pg -O1
mkdir -m 700 xdg
XDG_RUNTIME_DIR="$WORK/xdg"
export XDG_RUNTIME_DIR
LIMIT=60 limited "$CS" record --live -o s.data -- ./fk > out.txt 2> err.txt &
rec=$!
i=0
while [ $i -lt 100 ] && [ "$(ls xdg/callscope/ 2> /dev/null | grep -c '\.sock$')" -lt 2 ]; do
	sleep 0.1
	i=$((i + 1))
done
is "$("$CS" live list | awk 'NR > 1 && $2 == "./fk"' | wc -l | tr -d ' ')" 2 "live list shows parent and child"
pids=$(ls xdg/callscope | sed -n 's/\.sock$//p' | sort -n)
# the child is the one whose parent is the other
parent=""; child=""
for p in $pids; do
	pp=$(awk '{ print $4 }' "/proc/$p/stat")
	for q in $pids; do [ "$pp" = "$q" ] && child=$p && parent=$q; done
done
[ -n "$child" ] && [ -n "$parent" ]
ok $? "the two sockets are a parent's and its child's ($parent, $child)"
# the child must have done some work before it is stopped (a loaded
# machine may not have run it yet)
pid=$child wait_live_events 100
"$CS" live "$child" stop
ok $? "stop the child"
"$CS" live "$parent" status | grep -qx 'state=on'
ok $? "the parent still captures"
sleep 0.5
"$CS" live "$parent" snapshot -o s1.data 2> /dev/null
c1=$(calls_of s1.data child_work)
p1=$(calls_of s1.data parent_work)
# the parent goes on: wait (up to 5 s) for a snapshot that shows it
i=0
while :; do
	sleep 0.25
	"$CS" live "$parent" snapshot -o s2.data 2> /dev/null
	c2=$(calls_of s2.data child_work)
	p2=$(calls_of s2.data parent_work)
	[ "$p2" -gt "$p1" ] || [ $i -ge 20 ] && break
	i=$((i + 1))
done
[ "$c1" -gt 0 ] && [ "$c1" -eq "$c2" ] && [ "$p2" -gt "$p1" ]
ok $? "snapshots hold both; the stopped child adds nothing ($c1 $c2), the parent goes on ($p1 $p2)"
touch quit
wait $rec
is "$?" 7 "the parent exits with its own status"
is "$(cat out.txt)" "child 3" "and the child with its own"
done_testing
