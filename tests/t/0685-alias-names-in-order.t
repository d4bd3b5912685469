#!/bin/sh
# A function known by several names of one length and as many leading
# underscores is named by the first in byte order, whatever order the
# symbol table lists them in: before, the table's order chose (here it
# lists at_b2 at_a2 at_b1 at_a1, and at_a2 and at_b2 were shown), so one
# C++ destructor whose complete and base variants share their code came
# out "[complete]" and the next class's "[base]" (astyle: ~ASBeautifier()
# [complete], ~ASEnhancer() [base]).
. "$(dirname "$0")/lib.sh"

plan 3
build_prog alias_order al -O2 -pg
limited "$CS" record -o a.data -- ./al > /dev/null 2> rec.err
is "$(calls_of a.data at_a1)" 3 "at_a2's three calls go to at_a1, the first of its names"
is "$(calls_of a.data at_b1)" 3 "at_b2's three calls go to at_b1, the first of its names"
is "$("$CS" report -i a.data --json | jq -r '[.functions[].name | select(startswith("at_"))] | sort | join(" ")')" \
	"at_a1 at_b1" "no other name of theirs is shown"
done_testing
