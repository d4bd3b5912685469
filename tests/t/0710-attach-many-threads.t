#!/bin/sh
# record --pid asks for stack copies from the first 256 threads only (their
# rings are locked in memory, 256 KB each) and takes the kernel's chain
# for the others: attached to 300 threads, both kinds of stacks come, and
# the samples of every thread count.
. "$(dirname "$0")/lib.sh"

plan 3
cc -O2 -g -pthread -o many "$PROGS/many_threads.c"
attach_sampled prof.txt 1 0.5 ./many 300
rc=$?
skip_if_attach_refused $rc err.txt 3
grep -q 'sampling 301 threads' err.txt
ok $? "record --pid opened all 301 threads ($(head -n 1 err.txt))"
unwound=$(awk '/^# stacks: / { print $3 }' prof.txt)
chained=$(awk '/^# stacks: / { print $(NF - 3) }' prof.txt)
[ "${unwound:-0}" -gt 0 ] && [ "${chained:-0}" -gt 0 ]
ok $? "stacks from copies ($unwound) and from the kernel's chain ($chained)"
spin=$(awk '!/^#/ && $4 == "spin_and_sleep" { print $2 }' prof.txt)
samples=$(awk '/^# callscope record --pid/ { print $6 }' prof.txt)
[ -n "$samples" ] && [ $((${spin:-0} * 10)) -ge $((samples * 9)) ]
ok $? "the threads' samples count ($spin of $samples in spin_and_sleep)"
done_testing
