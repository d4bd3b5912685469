#!/bin/sh
# record --pid finds each sample's callers by unwinding a copy of its
# stack with the objects' call frame information, else by the kernel's
# chain of frame pointers; where %rbp holds no frame pointer the chain
# runs on through words that are no return addresses, and a function
# whose call frame information describes %rbp's frame leads the unwinding
# there too.  A program spends part of its time with %rbp at an array of
# such words and part in a function with a true stack: no row of the
# profile comes from those words, the true stack reaches main, and the
# header counts the stacks cut, each sample of the false one.  Then a
# program built -O2 without frame pointers: its stacks reach main.
. "$(dirname "$0")/lib.sh"

plan 6
LIMIT=30
cc -O0 -g -o bogus "$PROGS/bogus_frames.c"
attach_sampled prof.txt 1.5 0.3 ./bogus
rc=$?
skip_if_attach_refused $rc err.txt 6
ok $rc "record --pid ran"
# column 4 is the function: rows named by a bare address came from no object
is "$(awk '!/^#/ && $1 != "%" && $4 ~ /^0x/' prof.txt | wc -l)" 0 \
	"no row comes from the words that are no return addresses"
row() { awk -v f="$1" -v c="$2" '!/^#/ && $4 == f { print $c }' prof.txt; }
fp=$(row fp_spin 2)
main=$(row main 3)
# (a sample at fp_spin's first or last instructions, its frame not yet or
# no longer made, skips main)
[ -n "$fp" ] && [ "$fp" -gt 0 ] && [ $((${main:-0} * 10)) -ge $((fp * 9)) ]
ok $? "the true chain reaches main (main on $main stacks, fp_spin running in $fp)"
bogus=$(row bogus_frame_spin 2)
cut=$(awk '/^# stacks cut/ { print $(NF - 2) }' prof.txt)
[ -n "$cut" ] && [ -n "$bogus" ] && [ "$cut" -le "$bogus" ] && [ $((cut * 10)) -ge $((bogus * 9)) ]
ok $? "the header counts the false chains cut ($cut; bogus_frame_spin running in $bogus)"

cc -O2 -g -fomit-frame-pointer -o hot "$PROGS/live_hot.c"
attach_sampled hot.txt 1 0.3 ./hot
samples=$(awk '/^# callscope record --pid/ { print $6 }' hot.txt)
unwound=$(awk '/^# stacks: / { print $3 }' hot.txt)
# (all but a sample in code without call frame information, if any)
[ -n "$samples" ] && [ "$samples" -gt 0 ] && [ $((${unwound:-0} * 100)) -ge $((samples * 95)) ]
ok $? "-O2 without frame pointers: the stacks unwound from their copies ($unwound of $samples)"
main=$(awk '!/^#/ && $4 == "main" { print $3 }' hot.txt)
[ $((${main:-0} * 10)) -ge $((samples * 9)) ]
ok $? "-O2 without frame pointers: the stacks reach main ($main of $samples)"
done_testing
