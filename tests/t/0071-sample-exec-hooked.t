#!/bin/sh
# A run that only samples (its program has no hooks: a shell, a wrapper
# script's interpreter) keeps its hooks idle when it execs or loads code
# that has them: that code is sampled as the rest is, not traced without
# the hooks' measured cost, and its samples are not lost.
. "$(dirname "$0")/lib.sh"

plan 8
for flags in "$HOOK_FLAGS_PG" "$HOOK_FLAGS_CYG"; do
	build_prog basic app -O2 $flags
	want=$(./app 33)
	limited "$CS" record -q -o s.data -- /bin/sh -c 'exec ./app 33' > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:$want" "$flags through a shell: the program ran as without record"
	"$CS" report -i s.data --json > s.json
	is "$(jq .calls s.json)" 0 "$flags: no call traced in a sampling run"
	is "$(jq .lost_samples s.json)" 0 "$flags: no sample lost"
	ok $(jq '.samples > 0' s.json | grep -qx true; echo $?) "$flags: the program was sampled ($(jq .samples s.json) samples)"
done
done_testing
