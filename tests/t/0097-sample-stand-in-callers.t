#!/bin/sh
# A sample in the C library under one of the runtime's stand-ins that the
# program called (pthread_create, sigprocmask, the exec family) keeps the
# program's frames beyond the stand-in's: the analyzer once ended every
# stack at the runtime's first frame, so a main thread starting threads
# in a loop had 72 % of its samples rooted at pthread_create, with no
# main() and no truncation said.  Only where the runtime started a thread
# does the stack end there: its start routine is its first frame, as in
# a trace, without start_thread and clone3.
. "$(dirname "$0")/lib.sh"

plan 6
build_prog spawn_loop sl -O2
build_prog sample_threads th -O2
for stack in auto dwarf; do
	limited "$CS" record --stack=$stack -o sl-$stack.data -- ./sl 3000 > /dev/null 2>&1
	pid=$("$CS" info -i sl-$stack.data --json | jq '.processes[0].pid')
	"$CS" export -i sl-$stack.data --format=folded --tid="$pid" -o main.folded
	kept=$(grep -c ';main;spawn;pthread_create' main.folded)
	cut=$(grep 'pthread_create' main.folded | grep -vc ';main;spawn;pthread_create')
	ok $(( kept == 0 )) "--stack=$stack: the main thread's samples in pthread_create ($kept stacks) are there"
	is "$cut" 0 "--stack=$stack: every one reaches spawn() and main()"
done
limited "$CS" record -o th.data -- ./th 4 > /dev/null 2>&1
"$CS" export -i th.data --format=folded -o th.folded
is "$(grep -c '^worker;burn' th.folded)" "$(grep -c 'burn' th.folded)" \
	"a started thread's stacks begin at its start routine"
is "$(grep -c 'start_thread\|clone' th.folded)" 0 "nothing of the C library's thread start is shown"
done_testing
