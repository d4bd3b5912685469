#!/bin/sh
# A program that changes directory and then starts a thread, forks or
# execs (as a test suite's `cd dir && prog` does) is recorded whole: the
# runtime finds the staging directory by an absolute path, so no process
# or thread is lost and nothing of ours appears on the program's stderr.
. "$(dirname "$0")/lib.sh"

plan 9
build_prog chdir_then_spawn app -O2 -pg
mkdir elsewhere
for mode in trace count flight; do
	limited "$CS" record --mode=$mode -o rel.data -- ./app elsewhere > out.txt 2> err.txt
	is "$?" 0 "$mode: the program exits 0"
	is "$(grep -v '^callscope: recorded' err.txt)" "" "$mode: nothing but record's summary on stderr"
	is "$(calls_of rel.data work)" 4 \
		"$mode: work's calls in the main thread, a thread, a child and an exec'd image"
done
done_testing
