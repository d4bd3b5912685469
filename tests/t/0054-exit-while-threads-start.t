#!/bin/sh
# A process that ends while its threads are starting leaves buffer files
# the threads never began to write: nothing of them was recorded, so
# record says nothing of them, and the program's stderr stays its own
# (before, a spurious "not a thread buffer" warning came up in a few of
# these runs). 40 runs in the modes that open a thread's buffer at its start.
. "$(dirname "$0")/lib.sh"

plan 3
build_prog exit_while_threads_start app -O2 $HOOK_FLAGS_PG
for mode in "--mode=count --time-by=samples" "--mode=trace"; do
	: > err.txt
	for i in $(seq 20); do
		limited "$CS" record -q $mode -o r.data -- ./app 2>> err.txt
		rc=$?
		[ $rc = 3 ] || echo "exit $rc" >> err.txt
	done
	is "$(cat err.txt)" "" "$mode: 20 runs, each exit 3 and no line on stderr"
done
"$CS" info r.data > info.txt
ok $? "the last recording reads"
done_testing
