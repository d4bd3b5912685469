#!/bin/sh
# An exec that fails ends nothing: the process goes on, and when it then
# exits, that is its end, in a traced, a counted and a sampled run; when
# it then execs a program that starts, the image ends replaced by exec.
. "$(dirname "$0")/lib.sh"

plan 12
LIMIT=30
build_prog exec_self hooked -O2 $HOOK_FLAGS_CYG
build_prog exec_self plain -O2
for run in "trace hooked" "count hooked" "sample plain"; do
	set -- $run
	limited "$CS" record -q --mode=$1 -o f.data -- ./$2 0 fail > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:done" "$1: the program went on after its exec failed"
	"$CS" info -i f.data --json > i.json
	is "$(jq -r '[.processes[] | "\(.image):\(.ended_by):\(.exited_normally)"] | join(" ")' i.json)" \
		"0:exit:true" "$1: the one image exited normally"
	"$CS" info -i f.data > i.txt
	is "$(grep -c 'replaced by exec\|did not exit' i.txt)" 0 "$1: info says nothing of exec"
	limited "$CS" record -q --mode=$1 -o g.data -- ./$2 1 fail > out.txt 2> err.txt
	"$CS" info -i g.data --json > i.json
	is "$(cat out.txt):$(jq -r '[.processes[] | "\(.image):\(.ended_by)"] | join(" ")' i.json)" \
		"done:0:exec 1:exit" "$1: after a failed exec, one that starts replaces the image"
done
done_testing
