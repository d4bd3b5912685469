#!/bin/sh
# The calls still open when exec replaces a process close at the exec, in
# a count run as in a trace: not at the end of the recording, which the
# last image reaches 200 ms later.  A forked child that execs ends its
# own image, not its parent's, and so do a shell's.
. "$(dirname "$0")/lib.sh"

plan 15
LIMIT=30
build_prog exec_self app -O2 $HOOK_FLAGS_CYG
for mode in count trace; do
	limited "$CS" record -q --mode=$mode -o e.data -- ./app 2 > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:done" "$mode: the program ran through its two execs"
	"$CS" report -i e.data --json > r.json
	fn() { jq --arg f "$1" -r ".functions[] | select(.name == \$f) | .$2" r.json; }
	is "$(fn replace calls):$(fn replace virtual_returns)" "2:2" \
		"$mode: replace, open at each exec, closed there"
	ok $(( $(fn replace total_ns) >= 100000000 )) \
		"$mode: replace's two calls last less than 100 ms ($(fn replace total_ns) ns), not until the end"
	# an exec loads the program, its libraries and the runtime: 200 us is
	# little for it
	ok $(( $(fn replace total_ns) < 400000 )) \
		"$mode: replace's two calls include the execs, which came before their end"
	# main: the last image's 200 ms, and a few ms in each exec'd one
	ok $(( $(fn main total_ns) >= 300000000 )) \
		"$mode: main's three calls last less than 300 ms ($(fn main total_ns) ns)"
done
limited "$CS" record -q --mode=count -o f.data -- ./app 1 fork > out.txt 2> err.txt
is "$?:$(cat out.txt)" "0:done" "fork: the child ran through its exec, the parent waited"
"$CS" info -i f.data --json > i.json
is "$(jq -r '[.processes[] | "\(.image):\(.ended_by):\(.ppid == $p)"] | join(" ")' \
	--argjson p "$(jq '.processes[0].pid' i.json)" i.json)" \
	"0:exit:false 0:exec:true 1:exit:true" "fork: the child's first image replaced by exec, the parent exited"
build_prog exec_self plain -O2
limited "$CS" record -q -o s.data -- /bin/sh -c './plain 0 && exec ./plain 0' > out.txt 2> err.txt
is "$?:$(cat out.txt | tr '\n' ' ')" "0:done done " "a shell that runs one program and execs another"
"$CS" info -i s.data > i.txt
is "$(grep -c 'did not exit' i.txt)" 0 "shell: info lists no process as not exiting normally"
"$CS" info -i s.data --json > i.json
is "$(jq -r '[.processes[] | "\(.exe | endswith("/plain")):\(.ended_by)"] | unique | join(" ")' i.json)" \
	"false:exec true:exit" "shell: each image of the shell was replaced by exec, each program exited"
done_testing
