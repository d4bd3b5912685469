#!/bin/sh
# A program compiled in a build directory from a source named relative to
# it (gcc ../src/f.c, as out-of-tree builds name them): DWARF holds the
# relative name and the compilation directory, which BFD joins, so GNU
# gprof's -C and -A name the source from there and -A opens it from any
# directory.  callscope gprof must name and open it the same way.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof >/dev/null 2>&1; then
	plan 1
	skip "GNU gprof not installed (binutils)"
	exit 0
fi
plan 4
mkdir -p src build elsewhere
cp "$PROGS/basic.c" src/basic.c
(cd build && cc -g -pg -O0 -o p ../src/basic.c) || { echo "Bail out! cannot build"; exit 1; }
(cd build && limited ./p > /dev/null)
[ -s build/gmon.out ] || { echo "Bail out! the -pg program wrote no gmon.out"; exit 1; }
cd build
gprof -b -C p gmon.out > want.txt 2> /dev/null
"$CS" gprof -b -C p gmon.out > got.txt 2> err.txt
first=$(head -n 1 got.txt | cut -d: -f1)
is "$first" "$(pwd -P)/../src/basic.c" "-C names the source from the compilation directory: $(cat err.txt)"
same_file want.txt got.txt "-C is GNU gprof's"
cd ../elsewhere
gprof -b -A ../build/p ../build/gmon.out > want.txt 2> /dev/null
"$CS" gprof --compat=strict -b -A ../build/p ../build/gmon.out > got.txt 2> err.txt
is "$(cat err.txt)" "" "-A opens the source from another directory"
same_file want.txt got.txt "-A (--compat=strict) is GNU gprof's"
done_testing
