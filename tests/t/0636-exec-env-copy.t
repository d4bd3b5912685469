#!/bin/sh
# A child that execs with an environment of its parent's making (a copy
# of environ taken at the parent's start, as a shell builds each
# command's) still ends "replaced by exec": the exec hands on the child's
# own image mark, not the parent's, so the image it starts writes the
# child's end.  With environ, with the copy, by execle's list form, and
# under bash, which runs each command so.
. "$(dirname "$0")/lib.sh"

plan 4
LIMIT=30
build_prog exec_env_copy app -O2 -pg
build_prog exec_self leaf -O2 -pg
# ends FILE: each image's "image:how it ended", the processes in order
ends() {
	"$CS" info -i "$1" --json |
		jq -r '[.processes[] | "\(.image):\(.ended_by // "none"):\(.exited_normally)"] | join(" ")'
}
limited "$CS" record -q -o a.data -- ./app /bin/true > /dev/null 2>&1
is "$(ends a.data)" \
	"0:exit:true 0:exec:false 1:exit:true 0:exec:false 1:exit:true 0:exec:false 1:exit:true" \
	"each forked child, whatever environment it execs with, was replaced by exec"
"$CS" info -i a.data > i.txt
is "$(grep -c 'did not exit' i.txt)" 0 "info calls none of them unfinished"
limited "$CS" record -q -o b.data -- bash -c './leaf 0; /bin/true; :' > /dev/null 2>&1
is "$(ends b.data | tr ' ' '\n' | sort | uniq -c | awk '{ printf "%s*%s ", $1, $2 }')" \
	"2*0:exec:false 1*0:exit:true 2*1:exit:true " \
	"bash's children, a hooked program and an unhooked one, were replaced by exec"
is "$("$CS" info -i b.data | grep -c 'did not exit')" 0 "info calls none of bash's unfinished"
