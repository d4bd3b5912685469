#!/bin/sh
# record --pid reads each sample's call chain as the kernel found it by
# frame pointers; where %rbp holds no frame pointer (code built without
# them) the chain runs on through words that are no return addresses.
# A program spends part of its time with %rbp at an array of such words
# and part in a function with a true chain: no row of the profile comes
# from those words, the true chain reaches main, and the header counts
# the chains cut, each sample of the false one.
. "$(dirname "$0")/lib.sh"

plan 4
cc -O0 -g -o bogus "$PROGS/bogus_frames.c"
./bogus &
prog=$!
sleep 0.3
LIMIT=30 limited "$CS" record --pid "$prog" --duration 1.5 > prof.txt 2> err.txt
rc=$?
touch quit
wait $prog
if [ $rc -ne 0 ] && grep -q 'cannot sample' err.txt; then
	for i in 1 2 3 4; do
		skip "perf_event_open is not allowed here: $(head -n 1 err.txt)"
	done
	done_testing
	exit 0
fi
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
cut=$(awk '/^# call chains cut/ { split($NF, x, " "); print $(NF - 2) }' prof.txt)
[ -n "$cut" ] && [ -n "$bogus" ] && [ "$cut" -le "$bogus" ] && [ $((cut * 10)) -ge $((bogus * 9)) ]
ok $? "the header counts the false chains cut ($cut; bogus_frame_spin running in $bogus)"
done_testing
