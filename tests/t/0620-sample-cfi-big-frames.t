#!/bin/sh
# Without frame pointers the default stack method follows the call frame
# information in the signal handler: leaf() runs below a frame with a 20 KB
# buffer, and every stack still reaches main.  --stack=dwarf, whose 8 KB
# copy of the stack ends inside that buffer, is the contrast: its stacks are
# cut there.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 7
build_prog sample_frames sf -O2 -fomit-frame-pointer
limited "$CS" record -o a.data -- ./sf big 300 > out.txt 2> err.txt
is "$?" 0 "the program ran under the sampler"
"$CS" report -i a.data --json > r.json
n=$(jq .samples r.json)
[ "$n" -ge 50 ]
ok $? "it was sampled ($n samples)"
# (a sample or two may land in the runtime's own start-up, in libc, where
# the report then gives each method's share, as in 0603)
method=$(jq -r .stack_method r.json)
echo "$method" | cfi_share_at_least 95
ok $? "the report names the method ($method)"
is "$(jq -r .truncated_stacks r.json)" 0 "no stack is truncated"
main=$(jq '[.functions[] | select(.name == "main") | .total_pct] | add // 0' r.json)
awk -v p="$main" 'BEGIN { exit !(p >= 99) }'
ok $? "main is on every stack ($main %)"

limited "$CS" record --stack=dwarf -o d.data -- ./sf big 300 > /dev/null 2>&1
"$CS" report -i d.data --json > d.json
n=$(jq .samples d.json)
t=$(jq .truncated_stacks d.json)
awk -v t="$t" -v n="$n" 'BEGIN { exit !(n > 0 && t >= n * 0.9) }'
ok $? "--stack=dwarf: the 8 KB copy ends in the buffer ($t of $n truncated)"
main=$(jq '[.functions[] | select(.name == "main") | .total_pct] | add // 0' d.json)
awk -v p="$main" 'BEGIN { exit !(p <= 10) }'
ok $? "--stack=dwarf: main is missing from those stacks ($main %)"
done_testing
