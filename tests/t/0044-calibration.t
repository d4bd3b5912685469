#!/bin/sh
# The hooks' cost subtracted from every call is measured at start-up
# through the entry point the program calls (mcount, __fentry__ or the
# -finstrument-functions pair).  Where the hooks' cost is most of a
# function's measured time, the report says it cannot vouch for that
# function's self time.
. "$(dirname "$0")/lib.sh"

plan 15
# Each kind of hook gets a cost of its own, measured through it: a figure
# of a few to a few hundred ns (zero would mean it was never measured).
# How steady it is from run to run is a timing, checked on a quiet machine
# by bench/calibration.sh, not here where other tests share the cores.
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog exit_open p_$kind -O2 $flags
	limited "$CS" record -o c.data -- "./p_$kind" 1000 >/dev/null 2>&1
	cost=$("$CS" info -i c.data --json | jq '.overhead_ns_per_call * 100 | floor')
	ok $(( cost < 100 || cost > 100000 )) "$kind: the hooks' cost is measured ($cost/100 ns per call)"
done

# measured again at exit, the lower of the two subtracted (from the calls
# of the compiler hooks: library calls have a figure of their own); count
# mode subtracts in the program, as calls end, with the start's figure only
"$CS" info -i c.data --json > i.json
is "$(jq '.processes[0] | ([.hook_ns_at_start, .hook_ns_at_exit] | min) - .hook_ns_subtracted
	| . < 0.01 and . > -0.01' i.json) $(jq -r '.processes[0].hook_cost_from' i.json)" "true calibration" \
	"a trace too short for samples in its hooks subtracts the lower of the costs measured at start and at exit"
if [ -r /proc/thread-self/schedstat ]; then
	is "$(jq '.processes[0] | .run_cpu_ns > 0 and .run_wait_ns >= 0' i.json)" true \
		"the main thread's running and waiting times are recorded"
	"$CS" report -i c.data --json > w.json
	# the waiting of main threads whose context switches the runtime
	# could not see, all in the times (tests/t/0064 checks what it leaves
	# out where it sees them, tests/t/0096 what it keeps)
	unseen=$(jq '.run_wait_unseen_ns * 100 / (.run_wait_unseen_ns + .run_cpu_ns) | floor' w.json)
	said=$("$CS" report -i c.data | grep -c '^# the program waited for a CPU [0-9]* % of its run')
	is "$said" "$([ "$unseen" -ge 10 ] && echo 1 || echo 0)" \
		"the report says how long the program waited for a CPU unseen by its clock when a tenth or more ($unseen %)"
	waited=$(jq '(.run_wait_ns - .run_wait_left_out_ns) * 100 / (.run_wait_ns - .run_wait_left_out_ns + .run_cpu_ns) | floor' w.json)
	said=$("$CS" info -i c.data | grep -c "waited for a CPU [0-9]* % of its run (.* running): .*\(its calls' times include the waiting\|the rest is in them\)")
	is "$said" "$([ "$waited" -ge 10 ] && echo 1 || echo 0)" \
		"info warns that the times include the waiting when a tenth or more ($waited %)"
else
	skip "the kernel keeps no schedstat"
	skip "the kernel keeps no schedstat"
	skip "the kernel keeps no schedstat"
fi
limited "$CS" record --mode=count -o n.data -- ./p_CYG 1000 >/dev/null 2>&1
is "$("$CS" info -i n.data --json | jq '.processes[0] | has("hook_ns_at_exit")')" false \
	"count mode: measured at start only"

# the least disturbed of three runs: a busy machine can preempt the
# program inside the leaf for milliseconds, which no estimate explains
for i in 1 2 3; do
	limited "$CS" record -o d$i.data -- ./p_PG 300000 >/dev/null 2>&1
	echo "$("$CS" report -i d$i.data --json | jq '[.functions[] | select(.name == "leaf") | .self_ns] | add') d$i.data"
done | sort -n | head -1 | { read -r _ best; mv "$best" d.data; }
"$CS" report -i d.data --json > d.json
is "$(jq -c '[.functions[] | select(.name == "leaf" or .name == "fin") | [.name, .self_time_doubtful, .total_time_doubtful]] | sort' d.json)" \
	'[["fin",false,false],["leaf",true,true]]' "a one-line leaf's self time and total are marked doubtful, fin's (a flush) are not"
"$CS" report -i d.data > d.txt
# said from a tenth of the run on: on a busy machine the program's own
# time can grow past that
share=$(jq '.overhead_ns * 100 / (.overhead_ns + ([.functions[].self_ns] | add)) | floor' d.json)
said=$(grep -c '^# the hooks were [0-9]* % of the measured run' d.txt)
is "$said" "$([ "$share" -ge 10 ] && echo 1 || echo 0)" "the report says how much of the run the hooks were when a tenth or more ($share %)"
hint=$(grep -c '^# times that do not depend on it: record --mode=count --time-by=samples' d.txt)
is "$hint" "$([ "$share" -ge 50 ] && echo 1 || echo 0)" "and names the recording timed by samples when they were half or more"
grep -q "leaf \[times within the hooks' error\]" d.txt && grep -q "^# \[times within the hooks' error\]:" d.txt
ok $? "the text report marks the leaf and explains the mark"

# --untimed: the leaf keeps its count, its self time goes to main
"$CS" report -i d.data --untimed --json > u.json
is "$(jq -c '[.functions[] | select(.name == "leaf") | [.untimed, .calls, .self_ns]]' u.json)" \
	"[[true,300000,0]]" "--untimed: the leaf is counted, not timed"
before=$(jq '[.functions[] | select(.name == "main" or .name == "leaf") | .self_ns] | add' d.json)
after=$(jq '[.functions[] | select(.name == "main") | .self_ns] | add' u.json)
ok $(( before - after > 1 || after - before > 1 )) "--untimed: main's self time took the leaf's ($before ns, $after ns)"
"$CS" report -i d.data --untimed=many >/dev/null 2>err.txt
rc=$?
ok $(( rc == 0 || $(wc -l < err.txt) != 1 )) "--untimed with a bad value: one line, refused"
done_testing
