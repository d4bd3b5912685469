#!/bin/sh
# A program that overwrites its callers' frames with random words (some
# like stack addresses, some like code addresses) while it is sampled, and
# puts them back: the walk in the signal handler reads only inside the
# thread's stack and stops at what makes no sense, so the program runs to
# its end unharmed; those stacks are truncated, and the recording reads.
. "$(dirname "$0")/lib.sh"

plan 4
build_prog sample_frames sf -O2 -fomit-frame-pointer
limited "$CS" record -o s.data -- ./sf smash 3000 > out.txt 2> err.txt
is "$?" 0 "the program ran to its end under the sampler"
is "$(cat out.txt)" done "its output is unchanged"
"$CS" report -i s.data --json > r.json
is "$?" 0 "the recording reads back"
n=$(jq .samples r.json)
l=$(jq '[.functions[] | select(.name == "leaf") | .self_samples] | add // 0' r.json)
awk -v l="$l" -v n="$n" 'BEGIN { exit !(n >= 20 && l >= n * 0.8) }'
ok $? "the smashed stretch was sampled ($l of $n samples in leaf)"
done_testing
