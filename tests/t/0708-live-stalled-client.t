#!/bin/sh
# The control socket under misbehaving clients: one that stalls halfway
# through its message delays no other client (each is dropped on its own
# clock), and the answer to a bad header reaches a client that sent more
# bytes after it.
. "$(dirname "$0")/lib.sh"

plan 4

start_live_server
cc -O1 -o raw "$PROGS/live_rawclient.c"

./raw "$sock" slow > slow.txt &
slow=$!
sleep 0.3
t0=$(date +%s%N)
"$CS" live "$pid" status > status.txt 2>&1
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
grep -q "^events=" status.txt
ok $? "a client is answered while another stalls" || sed 's/^/#   /' status.txt
ok $(( ms >= 1000 )) "without waiting for the stalled one to time out (${ms} ms)"
wait $slow
is "$(cat slow.txt)" "(no answer)" "the stalled client is dropped"
is "$(./raw "$sock" garbage-more)" "error -7 not a callscope control message" \
	"a bad header followed by more bytes is answered"

touch quit
wait $rec
done_testing
