#!/bin/sh
# The control socket under hostile clients: another user is refused (by
# the directory's rights, and by SO_PEERCRED when the rights are opened),
# garbage, an oversized length, another version, an unknown command, a
# client that vanishes mid-message and one that stalls are answered or
# dropped, and the program runs on untouched.
. "$(dirname "$0")/lib.sh"

plan 12
cc -O1 -o raw "$PROGS/live_rawclient.c"
start_live_server

is "$(./raw "$sock" garbage)" "error -7 not a callscope control message" "garbage is answered"
is "$(./raw "$sock" oversize)" "error -9 message too long" "an oversized length is refused"
is "$(./raw "$sock" badversion)" "error -8 unsupported protocol version" "another version is refused"
is "$(./raw "$sock" unknown)" "error -10 unknown command" "an unknown command is answered"
./raw "$sock" vanish > /dev/null
ok $? "a client vanishing mid-message"
is "$(./raw "$sock" slow)" "(no answer)" "a stalled client is dropped after the time limit"
"$CS" live "$pid" status | grep -qx 'state=on'
ok $? "the program still answers after all of them"

if [ "$(id -u)" -ne 0 ] || ! setpriv --reuid=nobody --regid=nogroup --clear-groups true 2> /dev/null; then
	skip "setpriv cannot switch to the user nobody here (needs root)"
	skip "setpriv cannot switch to the user nobody here (needs root)"
	skip "setpriv cannot switch to the user nobody here (needs root)"
else
	cp "$CS" "$WORK/cs"
	chmod 755 "$WORK" "$WORK/cs"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$WORK/cs" live "$pid" stop 2> nobody1.txt
	[ $? -ne 0 ] && grep -q 'cannot reach' nobody1.txt
	ok $? "another user cannot reach the socket in the 0700 directory"
	# open the rights by hand: the peer check must still refuse
	chmod 711 xdg xdg/callscope
	chmod 666 "$sock"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$WORK/cs" live "$pid" stop 2> nobody2.txt
	[ $? -ne 0 ] && grep -q 'permission denied' nobody2.txt
	ok $? "with the rights opened, SO_PEERCRED refuses another user"
	chmod 700 xdg xdg/callscope "$WORK"
	chmod 600 "$sock"
	"$CS" live "$pid" status | grep -qx 'state=on'
	ok $? "capture is still on: the other user changed nothing"
fi

touch quit
wait $rec
is "$?" 7 "the program exits with its own status"
is "$(cat out.txt)" "rounds many" "and its own output"
done_testing
