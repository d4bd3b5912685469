#!/bin/sh
# A process that execs is one process with several images, and its thread
# one thread: record's closing line, info's counts and its list of pids
# count processes and threads, and say how many execs there were, while
# info still lists each image on a line of its own.
. "$(dirname "$0")/lib.sh"

plan 4
LIMIT=30
build_prog exec_self app -O2 -pg
limited "$CS" record -o a.data -- ./app 2 > /dev/null 2> err.txt
grep -q "recorded 1 thread of 1 process (2 execs) into 'a.data'" err.txt
ok $? "record counts one process that exec'd twice, and its one thread"
limited "$CS" record -o b.data -- ./app 2 fork > /dev/null 2> err.txt
grep -q "recorded 2 threads of 2 processes (2 execs) into 'b.data'" err.txt
ok $? "a parent and its forked child that execs twice: two processes, two threads"
"$CS" info -i b.data > i.txt
is "$(grep -E '^(processes|threads):' i.txt | tr -s ' ')" \
	"processes: 2 (and 2 execs)
threads: 2 (a line for each image a thread ran in)" "info counts them so, above a line per image"
"$CS" info -i b.data --json > i.json
is "$(jq -c '[(.pids | length), (.pids | unique | length), (.processes | length)]' i.json)" "[2,2,4]" \
	"info --json: pids lists each process once, processes each image"
