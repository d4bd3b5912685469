#!/bin/sh
# A sample inside the program's own signal handler: the call frame
# information leads through the signal frame the kernel built (the
# handler's return to libc's __restore_rt, whose FDE says where the
# interrupted registers are) to the interrupted code and on to the
# thread's first frame, all in the sampler's handler.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 4
build_prog sample_frames sf -O2 -fomit-frame-pointer
limited "$CS" record -o s.data -- ./sf signal 300 > out.txt 2> err.txt
is "$?" 0 "the program ran under the sampler"
"$CS" report -i s.data --json > r.json
h=$(jq '[.functions[] | select(.name == "on_usr1") | .total_pct] | add // 0' r.json)
awk -v p="$h" 'BEGIN { exit !(p >= 90) }'
ok $? "the samples are in the handler ($h %)"
# only a walk that reached the thread's first frame is named so: a stop
# at the signal frame would copy the rest in nearly every sample (a sample
# or two elsewhere, at the start or the end, may take the copy)
method=$(jq -r .stack_method r.json)
echo "$method" | cfi_share_at_least 97
ok $? "the handler's walk went on through the signal frame ($method)"
is "$(jq -r .truncated_stacks r.json)" 0 "no stack is truncated"
done_testing
