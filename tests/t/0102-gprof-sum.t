#!/bin/sh
# Several gmon.out files are summed as gprof sums them, and -s writes the
# sum as a gmon.out that GNU gprof reads to the same report; a summed bin
# over 65535 samples survives (gprof's own gmon.sum wraps it at 16 bits).
. "$(dirname "$0")/lib.sh"

if ! command -v gprof >/dev/null 2>&1 || ! command -v perl >/dev/null 2>&1; then
	plan 1
	skip "GNU gprof (binutils) or perl not installed"
	exit 0
fi
plan 8
gprof_program 4 0 p || exit 1
for run in a b; do
	gmon_of p "$run.out"
done

gprof -b p a.out b.out > want.txt
"$CS" gprof -b --compat=strict p a.out b.out > got.txt
cmp -s want.txt got.txt
ok $? "two files summed: output equals gprof's"
# the calls of a.out's top function, and that same function's in the sum
# (the two runs' samples may put another function at the sum's top)
top=$("$CS" gprof -b -p p a.out | awk 'NF == 7 && $4 ~ /^[0-9]+$/ { print $7; exit }')
calls_in() { "$CS" gprof -b -p p "$@" | awk -v f="$top" 'NF == 7 && $7 == f { print $4; exit }'; }
a_calls=$(calls_in a.out)
ab_calls=$(calls_in a.out b.out)
[ -n "$a_calls" ] && [ "$ab_calls" = "$((2 * a_calls))" ]
ok $? "$top's calls doubled ($a_calls -> $ab_calls)"

rm -f gmon.sum
"$CS" gprof -s p a.out b.out > sum.stdout
[ -s gmon.sum ] && [ ! -s sum.stdout ]
ok $? "-s writes gmon.sum and prints nothing else, as gprof"
gprof -b p gmon.sum > want.txt
"$CS" gprof -b --compat=strict p gmon.sum > got.txt
cmp -s want.txt got.txt
ok $? "gprof and callscope read the sum the same"
gprof -b -p p gmon.sum > sum.txt
gprof -b -p p a.out b.out > both.txt
cmp -s sum.txt both.txt
ok $? "the sum's flat profile equals that of the two files"

# the bin of main's first bytes set to 40000 samples in two files:
# 80000 does not fit 16 bits
main_addr=$(nm p | awk '$3 == "main" { print $1 }')
perl -e '
	my $addr = hex $ARGV[0];
	open F, "<", "a.out" or die; binmode F; local $/; my $d = <F>;
	my ($lo, $hi, $n) = unpack "Q<Q<L<", substr($d, 21, 20);
	my $bin = int(($addr + 8 - $lo) * $n / ($hi - $lo));
	substr($d, 20 + 1 + 40 + 2 * $bin, 2) = pack "S<", 40000;
	open O, ">", "big.out" or die; binmode O; print O $d;' "$main_addr" || exit 1
rm -f gmon.sum
"$CS" gprof -s p big.out big.out
total=$(gprof -b -p p gmon.sum | awk 'NF >= 4 && $2 ~ /^[0-9.]+$/ { t = $2 } END { print t }')
want=$("$CS" gprof -b -p p big.out big.out | awk 'NF >= 4 && $2 ~ /^[0-9.]+$/ { t = $2 } END { print t }')
[ "$total" = "$want" ] && awk -v t="$total" 'BEGIN { exit !(t >= 800) }'
ok $? "a summed bin of 80000 samples survives -s ($total s; read directly: $want s)"
mv gmon.sum ours.sum
gprof -s p big.out big.out 2>/dev/null
wrapped=$(gprof -b -p p gmon.sum | awk 'NF >= 4 && $2 ~ /^[0-9.]+$/ { t = $2 } END { print t }')
awk -v t="$wrapped" 'BEGIN { exit !(t < 800) }'
ok $? "gprof's own sum wraps that bin ($wrapped s): the documented bug"
mv ours.sum gmon.sum
"$CS" gprof -s --compat=strict p big.out big.out
strict=$(gprof -b -p p gmon.sum | awk 'NF >= 4 && $2 ~ /^[0-9.]+$/ { t = $2 } END { print t }')
[ "$strict" = "$wrapped" ]
ok $? "--compat=strict writes gprof's wrapped sum ($strict s)"
done_testing
