#!/bin/sh
# A histogram whose range is most of the address space, in one bin: the
# call graph's "granularity" line (and the flat profile's, with -T) says
# what GNU gprof says, where the bytes a bin covers do not fit in a long.
# gprof's (long) hist_scale * 2 goes past a long there; ours must give the
# same bytes without doing so (the sanitized build stops at any overflow).
. "$(dirname "$0")/lib.sh"

if ! command -v perl >/dev/null 2>&1; then
	plan 1
	skip "perl not installed"
	exit 0
fi
plan 6
build_prog basic p -O0 -pg
gmon_of p
[ -s gmon.out ] || { echo "Bail out! the -pg program wrote no gmon.out"; exit 1; }

# wide HIGH OUT: gmon.out with its histogram replaced by one bin over
# [0, HIGH), its arcs kept
wide() {
	perl -e '
		my ($high, $out) = @ARGV;
		open F, "<", "gmon.out" or die; binmode F; local $/; my $d = <F>;
		my $n = unpack "L<", substr($d, 21 + 16, 4);
		my $rest = substr($d, 21 + 40 + 2 * $n);
		open O, ">", $out or die; binmode O;
		print O substr($d, 0, 20), pack("CQ<Q<L<L<a15a", 0, 0, hex($high), 1, 100, "seconds", "s"),
			pack("S<", 1), $rest;
	' "$1" "$2"
}

# the scale is 2^63 - 2048 units (in a long, twice it is not) and 2^63
# itself (not in a long); gprof prints -4096 and 0 on x86-64
for c in "fffffffffffff000 -4096" "ffffffffffffffff 0"; do
	set -- $c
	wide "$1" w.out
	"$CS" gprof -b -q p w.out > got.txt 2> err.txt
	line=$(grep -a "^granularity" got.txt | sed 's/ byte(s).*//')
	is "$line" "granularity: each sample hit covers $2" "call graph, range to 0x$1: $(cat err.txt)"
	"$CS" gprof -b -p -T p w.out > got.txt 2> err.txt
	line=$(grep -a "^granularity" got.txt | sed 's/ byte(s).*//')
	is "$line" "granularity: each sample hit covers $2" "flat profile -T, range to 0x$1: $(cat err.txt)"
done
if command -v gprof > /dev/null 2>&1; then
	wide fffffffffffff000 w.out
	# (the flat profile's time per call is where gprof reads past its
	# table of units: not compared)
	gprof -b -q p w.out > want.txt 2> /dev/null
	"$CS" gprof -b -q p w.out > got.txt 2> /dev/null
	same_file want.txt got.txt "the whole call graph is GNU gprof's"
	wide ffffffffffffffff w.out
	gprof -b -T p w.out > want.txt 2> /dev/null
	"$CS" gprof -b -T p w.out > got.txt 2> /dev/null
	same_file want.txt got.txt "and with -T, GNU gprof's too"
else
	skip "GNU gprof (binutils) not installed"
	skip "GNU gprof (binutils) not installed"
fi
done_testing
