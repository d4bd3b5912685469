#!/bin/sh
# A process the program started that outlives it (a job left running in
# the background) is recorded whole: record waits for it, saying so, and
# its calls are all there, its end an exit.  Ctrl-C stops the waiting: the
# recording is sealed with what it has, a warning names the process still
# running, and record exits with the program's status.
. "$(dirname "$0")/lib.sh"

plan 6
LIMIT=30
build_prog outlive outlive -O2 -pg
limited "$CS" record -o a.data -- ./outlive 5000 > /dev/null 2> err.txt
rc=$?
is "$rc:$(calls_of a.data leaf)" "0:5001" "the child's calls after its parent ended are all recorded"
is "$("$CS" info -i a.data --json | jq -r '[.processes[] | "\(.ended_by):\(.exited_normally)"] | join(" ")')" \
	"exit:true exit:true" "both processes end by exit"
grep -q "the program ended, but 1 process it started still runs (pid [0-9]*); waiting for it" err.txt
ok $? "record says it waits, and for which process"

"$CS" record -o b.data -- ./outlive 10 hang > /dev/null 2> err2.txt &
recorder=$!
wait_for_line err2.txt 'waiting for it' 10
sleep 0.6	# the child's calls are made 200 ms after its start
kill -INT "$recorder"
wait "$recorder"
rc=$?
child=$(sed -n 's/.*still runs (pid \([0-9]*\)), recorded only up to now.*/\1/p' err2.txt)
is "$rc:$(calls_of b.data leaf)" "0:11" "Ctrl-C stops the waiting; the calls made so far are sealed"
[ -n "$child" ] && kill -0 "$child" 2> /dev/null
ok $? "the warning names the process still running"
[ -n "$child" ] && kill "$child"
is "$(grep -c 'waiting for it' err2.txt)" 1 "the waiting is announced once"
