#!/bin/sh
# A process that replaces itself by exec: each image but the last ends
# "replaced by exec" (its PROCESS_END, written by the image that replaced
# it), the last exits normally, and info, replay and a merge that keeps
# the events all say so.  info gives each image's own command line.
. "$(dirname "$0")/lib.sh"

plan 14
LIMIT=30
for flags in "$HOOK_FLAGS_PG" "$HOOK_FLAGS_CYG"; do
	# shellcheck disable=SC2086
	build_prog exec_self app -O2 $flags
	limited "$CS" record -q -o a.data -- ./app 2 > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:done" "$flags: the program ran through its two execs"
	"$CS" info -i a.data --json > i.json
	is "$(jq -r '[.processes[] | "\(.image):\(.ended_by):\(.exited_normally)"] | join(" ")' i.json)" \
		"0:exec:false 1:exec:false 2:exit:true" \
		"$flags: images 0 and 1 were replaced by exec, image 2 exited"
	"$CS" info -i a.data > i.txt
	is "$(grep -c '(replaced by exec after [0-9.]* [mu]*s)$' i.txt):$(grep -c 'did not exit' i.txt)" \
		"2:0" "$flags: info lists two images replaced by exec, none as not exiting normally"
	is "$(jq -r '[.processes[] | .argv[1]] | join(",")' i.json)|$(grep -c '^ *command: ' i.txt)" \
		"2,1,0|3" "$flags: info gives each image's command line"
	"$CS" replay -i a.data > r.txt
	is "$(grep -c '^\*\*\* the process was replaced by exec \*\*\*$' r.txt):$(grep -c 'without exiting' r.txt)" \
		"2:0" "$flags: replay says where exec replaced the process"
	limited "$CS" record -q -o b.data -- ./app 1 > /dev/null 2>&1
	"$CS" merge -o m.data --keep-events a.data b.data 2> err.txt
	"$CS" info -i m.data --json > m.json
	is "$(jq -r '[.processes[] | "\(.image):\(.ended_by)"] | join(" ")' m.json)" \
		"0:exec 1:exec 2:exit 3:exec 4:exit" "$flags: a merge keeping the events keeps how each image ended"
	rm -f m.data
	# the time of the end is the exec's: before the next image's start
	is "$(jq '[.processes[0].ran_ns > 0, .processes[0].ran_ns < 1e9] | all' i.json)" true \
		"$flags: image 0 ran for $(jq .processes[0].ran_ns i.json) ns before its exec"
done
done_testing
