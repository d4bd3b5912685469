#!/bin/sh
# Two cycles of mutual recursion that took no time tie in gprof's sort of
# the call graph: GNU gprof keeps them in the order of their numbers
# (glibc's merge sort keeps the left one when the comparison says -1 both
# ways), and callscope gprof must print the same entries and index.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof >/dev/null 2>&1; then
	plan 1
	skip "GNU gprof not installed (binutils)"
	exit 0
fi
plan 3
build_prog two_cycles tc -O0 -pg
gmon_of tc
[ -s gmon.out ] || { echo "Bail out! the -pg program wrote no gmon.out"; exit 1; }
gprof -b -q tc gmon.out > want.txt 2> /dev/null
"$CS" gprof -b -q tc gmon.out > got.txt 2> err.txt
first=$(grep -a -m1 'as a whole' got.txt | sed 's/.*<\(cycle [0-9]*\) as a whole.*/\1/')
is "$first" "cycle 1" "the first cycle's entry comes first: $(cat err.txt)"
same_file want.txt got.txt "the call graph is GNU gprof's"
gprof -b tc gmon.out > want.txt 2> /dev/null
"$CS" gprof -b tc gmon.out > got.txt 2> /dev/null
same_file want.txt got.txt "and so are the flat profile and the index"
done_testing
