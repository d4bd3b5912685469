#!/bin/sh
# Damaged gmon.out files and wrong arguments: one line on stderr that
# names the problem (for a damaged file: the record and its offset), a
# non-zero exit, no report.
. "$(dirname "$0")/lib.sh"

if ! command -v perl >/dev/null 2>&1; then
	plan 1
	skip "perl not installed"
	exit 0
fi
plan 18
build_prog basic p -O0 -pg
rm -f gmon.out
limited ./p > /dev/null 2>&1
[ -s gmon.out ] || { echo "Bail out! the -pg program wrote no gmon.out"; exit 1; }
size=$(wc -c < gmon.out)

# expect_fail NAME FILE PATTERN: one stderr line matching PATTERN, exit != 0
expect_fail() {
	"$CS" gprof -b p "$2" > out.txt 2> err.txt
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -Eq "$3" err.txt &&
	   [ ! -s out.txt ]; then
		ok 0 "$1"
	else
		ok 1 "$1 (exit $rc)"
		sed 's/^/#   /' err.txt
	fi
}

for cut in 2 12 25 40 70 $((size - 30)) $((size - 1)); do
	head -c "$cut" gmon.out > cut.out
	expect_fail "cut at $cut bytes" cut.out "damaged: .*(header|(TIME_HIST|CG_ARC) record at offset [0-9]+)"
done
(head -c 20 gmon.out; printf '\011'; tail -c +21 gmon.out) > tag.out
expect_fail "bad tag" tag.out "bad record tag 9 at offset 20"
perl -e '
	open F, "<", "gmon.out" or die; binmode F; local $/; my $d = <F>;
	my ($lo, $hi) = unpack "Q<Q<", substr($d, 21, 16);
	print $d, pack("CQ<Q<L<L<a15a", 0, $lo + 16, $hi + 16, 2, 100, "seconds", "s"), pack("S<S<", 1, 1);
' > overlap.out
expect_fail "overlapping histogram ranges" overlap.out "TIME_HIST record at offset $size: .*overlaps"
(head -c 4 gmon.out; printf '\007\000\000\000'; tail -c +9 gmon.out) > version.out
expect_fail "unsupported version" version.out "unsupported version 7 at offset 4"
perl -e '
	open F, "<", "gmon.out" or die; binmode F; local $/; my $d = <F>;
	substr($d, 21 + 16, 4) = pack "L<", 0x7fffffff;
	print $d;' > bins.out
expect_fail "a histogram announcing more bins than the file holds" bins.out \
	"TIME_HIST record at offset 20: 2147483647 bins announced"

"$CS" gprof -b p missing.out > out.txt 2> err.txt
rc=$?
[ "$rc" -ne 0 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "cannot open 'missing.out'" err.txt
ok $? "a missing gmon.out is named"
"$CS" gprof -b gmon.out gmon.out > out.txt 2> err.txt
rc=$?
[ "$rc" -ne 0 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "not an executable" err.txt
ok $? "a gmon.out given as the program is refused"
"$CS" gprof -b --compat=loose p gmon.out > out.txt 2> err.txt
[ $? -eq 2 ] && [ "$(wc -l < err.txt)" -eq 1 ]
ok $? "an unknown --compat mode is a usage error"
"$CS" gprof -b -O x p gmon.out > out.txt 2> err.txt
[ $? -eq 2 ] && grep -q "unknown gmon.out layout 'x'" err.txt
ok $? "an unknown -O layout is a usage error"
# a header alone is a valid, empty profile: nothing to report, no error
head -c 20 gmon.out > empty.out
"$CS" gprof -b p empty.out > out.txt 2> err.txt
[ $? -eq 0 ] && [ ! -s err.txt ]
ok $? "a header-only file is empty, not damaged"
"$CS" gprof -b -q p empty.out > out.txt 2> err.txt
[ $? -ne 0 ] && grep -q "no call-graph records" err.txt
ok $? "asking for the graph of a file without arcs says so"
"$CS" gprof -b p gmon.out > out.txt 2> err.txt
[ $? -eq 0 ] && [ ! -s err.txt ] && grep -q "Call graph" out.txt
ok $? "the undamaged file still reads"
done_testing
