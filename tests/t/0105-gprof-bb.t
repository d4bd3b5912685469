#!/bin/sh
# BB_COUNT records (basic-block counts, which only old compilers wrote):
# two records, one repeating a block, appended to a real gmon.out.  With
# -l, -C and -A show them summed per block as GNU gprof does, byte for
# byte; without -l they are left out with one warning; -s keeps them.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof >/dev/null 2>&1 || ! command -v perl >/dev/null 2>&1; then
	plan 1
	skip "GNU gprof (binutils) or perl not installed"
	exit 0
fi
plan 10
gprof_program 4 0 p || exit 1
gmon_of p
a=$(nm p | awk '$3 == "theta_0" { print $1 }')
b=$(nm p | awk '$3 == "beta_6" { print $1 }')
perl -e '
	my ($a, $b) = map { hex } @ARGV;
	open F, "<", "gmon.out" or die; binmode F; local $/; print <F>;
	print pack("CL<", 2, 3), pack("Q<Q<", $a + 8, 100), pack("Q<Q<", $a + 20, 7),
	      pack("Q<Q<", $b + 12, 0);
	print pack("CL<", 2, 2), pack("Q<Q<", $a + 8, 50), pack("Q<Q<", $b + 30, 9);
' "$a" "$b" > bb.out || exit 1

for opt in "-l -C" "-l -C -z" "-l -A" "-l -A -x" "-l -A -m 100" "-C"; do
	# shellcheck disable=SC2086
	gprof -b $opt p bb.out > want.txt 2> /dev/null
	# shellcheck disable=SC2086
	"$CS" gprof -b --compat=strict $opt p bb.out > got.txt 2> /dev/null
	cmp -s want.txt got.txt
	ok $? "'$opt' equals gprof's"
done
"$CS" gprof -b -l -C p bb.out | grep -q "(theta_0:0x$(printf '%x' $((0x$a + 8)))) 150 executions"
ok $? "the repeated block's counts are summed (100 + 50)"
"$CS" gprof -b -C p bb.out > /dev/null 2> err.txt
[ "$(wc -l < err.txt)" -eq 1 ] && grep -q "basic-block counts .* add -l" err.txt
ok $? "without -l one warning says they are left out"
rm -f gmon.sum
"$CS" gprof -s p bb.out bb.out
gprof -b -l -C p gmon.sum > sum.txt
gprof -b -l -C p bb.out bb.out > both.txt
cmp -s sum.txt both.txt && grep -q " 300 executions" sum.txt
ok $? "-s keeps the blocks: gprof reads the sum as the two files"
"$CS" gprof -b -l -C p gmon.sum > got.txt
cmp -s sum.txt got.txt
ok $? "and callscope reads the sum as gprof does"
done_testing
