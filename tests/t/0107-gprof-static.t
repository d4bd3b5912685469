#!/bin/sh
# callscope gprof -c (--static-call-graph): the direct calls in the code
# become arcs of count 0.  With --compat=strict the output is GNU gprof's
# byte for byte (gprof reads the call's displacement unsigned, so on
# x86-64 it finds forward calls only, and only inside the histogram);
# by default the backward calls of an error path are found too.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof > /dev/null 2>&1 || ! command -v g++ > /dev/null 2>&1; then
	plan 1
	skip "GNU gprof (binutils) or g++ not installed"
	exit 0
fi

plan 6
g++ -g -O2 -pg -o cxx "$PROGS/cxx_names.cc" -lpthread
# a spin long enough for the histogram that -c reads code within
rm -f gmon.out
limited ./cxx 30000000 > /dev/null
for o in "-b -c" "-b -c -z" "-b -c -T"; do
	# shellcheck disable=SC2086
	gprof $o cxx gmon.out > want.txt 2>&1
	# shellcheck disable=SC2086
	"$CS" gprof --compat=strict $o cxx gmon.out > got.txt 2>&1
	same_file want.txt got.txt "gprof --compat=strict $o: byte for byte"
done
gprof -b cxx gmon.out > plain.txt
gprof -b -c cxx gmon.out > static.txt
is "$(cmp -s plain.txt static.txt && echo same)" "" "gprof's -c adds arcs here (the comparison means something)"

build_prog error_paths e -O2 -pg
gmon_of e
"$CS" gprof -b -c e gmon.out > e.txt
is "$(grep -c '^ *0\.00 *0\.00 *0/0 *report_error \[[0-9]*\]$' e.txt) $(grep -c '^ *0\.00 *0\.00 *0/0 *cleanup \[[0-9]*\]$' e.txt)" \
	"1 1" "the error path's calls backwards in the code are found by default"
"$CS" gprof -b -c e gmon.out | grep -c via_pointer > vp.txt
is "$(cat vp.txt)" 0 "a call through a pointer is not guessed"
done_testing
