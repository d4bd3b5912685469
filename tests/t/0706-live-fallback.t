#!/bin/sh
# Without a usable $XDG_RUNTIME_DIR the socket goes to /tmp/callscope-UID,
# where live finds it; a killed program's stale socket is removed by
# live list.
. "$(dirname "$0")/lib.sh"

plan 5
build_prog live_server srv -pg -O1
XDG_RUNTIME_DIR="$WORK/does-not-exist"
export XDG_RUNTIME_DIR
dir="/tmp/callscope-$(id -u)"
LIMIT=60 limited "$CS" record --live -o s.data -- ./srv > out.txt 2> err.txt &
rec=$!
i=0
while [ $i -lt 100 ] && [ ! -e ready ]; do
	sleep 0.1
	i=$((i + 1))
done
pid=$(cat ready 2> /dev/null)
[ -n "$pid" ] && [ -S "$dir/$pid.sock" ]
ok $? "the socket is in $dir"
is "$(stat -c %a "$dir")" 700 "a 0700 directory"
"$CS" live "$pid" status | grep -qx "pid=$pid"
ok $? "live finds it there"
kill -9 "$pid"
wait $rec
[ -S "$dir/$pid.sock" ]
ok $? "a killed program leaves its socket"
"$CS" live list > /dev/null
[ ! -e "$dir/$pid.sock" ]
ok $? "live list removes it"
done_testing
