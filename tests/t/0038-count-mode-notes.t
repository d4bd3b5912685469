#!/bin/sh
# Count mode keeps no history, so the notes a trace keeps in its place
# (marks, task switches, the fatal signal that ended the program) have no
# place in it: they are not counted as lost events, as nothing the
# program did was lost.
. "$(dirname "$0")/lib.sh"

plan 6
build_prog crash crash -O2 -pg
cc -O2 -pg -I "$ROOT/include" -o mk "$PROGS/marks.c"
for mode in count "count --time-by=samples"; do
	limited "$CS" record -q --mode=$mode -o a.data -- ./crash abort > /dev/null 2>&1
	is "$?" 134 "$mode: the program's abort is passed on"
	is "$("$CS" info -i a.data --json | jq .lost_events)" 0 "$mode: an abort loses nothing"
	limited "$CS" record -q --mode=$mode -o m.data -- ./mk > /dev/null 2>&1
	is "$("$CS" info -i m.data --json | jq .lost_events)" 0 "$mode: marks and task switches lose nothing"
done
done_testing
