#!/bin/sh
# A process that never reaches its exit (killed here; replaced by exec
# alike) writes no CALIBRATION, whose fields held the library calls'
# hook cost.  PROCESS carries the start's figure too, so such a process's
# library calls still lose their own hooks' cost, not the compiler
# hooks' alone.  The file's two trailing PROCESS fields are then forged:
# zeroed (as a runtime before them wrote the section: library calls
# cost what other calls do) and set to twice the compiler hooks'; the
# difference in what was taken off in all is the library calls' count
# times the difference in figures.
. "$(dirname "$0")/lib.sh"

plan 6
LIMIT=60
N=50000
# tests/progs/libcall_loops.c, its library without hooks
cc -O2 -fPIC -shared -o libtiny.so "$PROGS/libcall_loops_lib.c" || exit 1
cc -O2 -pg -o calls "$PROGS/libcall_loops.c" -L. -ltiny -Wl,-rpath,'$ORIGIN' || exit 1
limited "$CS" record --outside-freq=0 -o run.data -- ./calls $N kill > /dev/null 2>&1
"$CS" info -i run.data --json > all.json
jq '.processes[0]' all.json > info.json
is "$(jq '.exited_normally' info.json)" false "the process was killed, not ended by exit"
is "$(jq '.library_hook_ns_subtracted >= .hook_ns_subtracted' info.json)" true \
	"its library calls' figure is known, no less than the compiler hooks' ($(jq '.library_hook_ns_subtracted' info.json) ns)"

# the PROCESS fields forged: zero, then twice the compiler hooks' figure
pair=$(jq --argjson u "$(jq '.ns_per_clock_unit' all.json)" \
	'(.hook_ns_subtracted_inner * 2 * 256 / $u | round) as $in
	 | ((.hook_ns_subtracted - .hook_ns_subtracted_inner) * 2 * 256 / $u | round) as $out
	 | $in + $out * 4294967296' info.json)
cp run.data zero.data
cp run.data twice.data
perl "$ROOT/tests/t/session_forge.pl" --section=2 zero.data end-8=0
perl "$ROOT/tests/t/session_forge.pl" --section=2 twice.data end-8=$pair
"$CS" report -i zero.data --json > zero.json
"$CS" report -i twice.data --json > twice.json
# (the run's own figure can come out level with the compiler hooks' on a
# busy machine, and a report then gives one figure)
"$CS" report -i twice.data > twice.txt
grep -q 'per call (.* per library call)' twice.txt
ok $? "the report's header says both figures"
is "$(jq 'has("overhead_ns_per_library_call")' zero.json)" false \
	"without the fields, library calls lose the compiler hooks' figure"
hook=$(jq '.hook_ns_subtracted' info.json)
is "$(jq --argjson h "$hook" '(.overhead_ns_per_library_call / $h - 2) | fabs < 0.02' twice.json)" \
	true "the forged figure is the one subtracted from library calls"
# the whole difference falls on the library calls: N tiny_step, a few of libc's
is "$(jq -n --slurpfile z zero.json --slurpfile t twice.json --argjson h "$hook" --argjson n $N \
	'($t[0].overhead_ns - $z[0].overhead_ns) / $h | . >= $n and . <= $n + 20')" true \
	"what is taken off grows by one compiler hooks' figure per library call"
