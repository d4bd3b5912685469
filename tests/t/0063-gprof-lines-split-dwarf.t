#!/bin/sh
# gprof -l on a program built with -gsplit-dwarf: the skeleton units in
# the program carry the line tables but no function, so a unit's list of
# function bounds is empty.  It must not be sorted from a NULL array, which
# the sanitizer build (scripts/test-sanitized.sh) stops on; the lines are
# read as without split DWARF.
. "$(dirname "$0")/lib.sh"

plan 3

build_prog cycle split -O1 -pg -gsplit-dwarf
gmon_of split
limited "$CS" gprof -b -l split gmon.out > split.txt 2> err.txt
is "$?" 0 "gprof -l reads a program built with -gsplit-dwarf"
is "$(wc -c < err.txt)" 0 "and says nothing on stderr"
grep -q '^ *[0-9.]* *[0-9.]* *[0-9.]* *11 .* is_even (cycle\.c:[0-9]* @ [0-9a-f]*)$' split.txt
ok $? "is_even's 11 calls are shown at its source line"
done_testing
