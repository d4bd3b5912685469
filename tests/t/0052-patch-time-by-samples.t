#!/bin/sh
# record --patch --mode=count --time-by=samples on a program built without
# hooks: the calls are counted exactly per call path, as a patched trace
# counts them; time comes from samples that read the patched functions'
# shadow stack, and samples in the entries' jumps and trampolines are the
# hooks' cost, counted apart.
. "$(dirname "$0")/lib.sh"

plan 7
build_prog sample_hot hot -O2
# 4999 Hz for about 650 samples, so that path_a's share below is
# within its bounds by more than 5 standard deviations (at the default
# 999 Hz, about 130 samples, it fell outside them under load)
limited "$CS" record --freq=4999 --patch --mode=count --time-by=samples -o s.data -- \
	./hot stack 200 >/dev/null 2>err.txt
ok $? "records"
limited "$CS" record --patch -o t.data -- ./hot stack 20 >/dev/null 2>&1
limited "$CS" record --patch --mode=count --time-by=samples -o s20.data -- ./hot stack 20 \
	>/dev/null 2>&1
# main's paths: the start-up code's frame_dummy ends in a jump to
# register_tm_clones, a tail call that shows it beside frame_dummy here
call_paths t.data | grep '^/main' > t.txt
call_paths s20.data | grep '^/main' > s.txt
ok "$(grep -c '/spin 20$' s.txt | grep -qx 2; echo $?)" "spin counted 20 times under each path"
same_file t.txt s.txt "the patched trace's call paths and counts, exactly"
# spin is called 200 times from each path, with 80 % of the work under path_a
share=$(path_a_share s.data)
ok $(( share < 68 || share > 92 )) "path_a's share of spin's time is ${share} % (80 expected)"
is "$("$CS" report -i s.data --json | jq -r '.time_by')" samples "the report says the times are samples'"

# a one-line leaf called 3 M times: the jumps, trampolines and hooks
# cost more than the leaf and its loop, and none of it is their time
build_prog exit_open leafy -O2
limited "$CS" record --patch --mode=count --time-by=samples -o l.data -- ./leafy 3000000 \
	>/dev/null 2>&1
"$CS" report -i l.data --json > l.json
is "$(jq '.functions[] | select(.name == "leaf") | .calls' l.json)" 3000000 "the leaf's calls, exactly"
hooks=$(jq '.time_hook_samples' l.json)
program=$(jq '.time_samples' l.json)
ok $(( hooks <= program )) "the hooks took $hooks samples, the program $program: counted apart"
done_testing
