#!/bin/sh
# The documented JSON of report, graph and info (the fields scripts rely
# on), report --sort by every key in text and JSON, the CLOCK_MONOTONIC
# clock used where the TSC is not (same exact counts), and functions of an
# instrumented shared library named and counted, at its ASLR address.
. "$(dirname "$0")/lib.sh"

# sorted KEY: the JSON report sorted by KEY is in that key's order.
sorted() {
	"$CS" report -i b.data --json --sort="$1" > s.json || return 1
	case $1 in
	name) jq -e '[.functions[].name] as $n | $n == ($n | sort)' s.json ;;
	*) jq -e --arg k "$2" '[.functions[][$k]] as $v | $v == ($v | sort | reverse)' s.json ;;
	esac > /dev/null
}

plan 25
build_prog basic prog -O2 -pg -fno-inline
limited "$CS" record -o b.data -- ./prog 12 > /dev/null 2>&1

"$CS" report -i b.data --json > r.json
jq -e '(.lost_events | type == "number") and (.functions | length > 0) and
	all(.functions[]; has("name") and has("calls") and has("self_ns") and has("total_ns") and
	    has("min_ns") and has("avg_ns") and has("max_ns"))' r.json > /dev/null
ok $? "report --json: lost_events, and functions[] with name, calls, self/total/min/avg/max_ns"
bad=$(jq '[.functions[] | select(.min_ns > .avg_ns or .avg_ns > .max_ns or .max_ns > .total_ns)] | length' r.json)
is "$bad" 0 "min <= avg <= max <= total for every function"
is "$(jq '.functions[] | select(.name == "leaf") | .avg_ns * .calls - .total_ns | fabs < 1000' r.json)" true \
	"avg_ns is a leaf's total over its calls"

"$CS" graph -i b.data --json > g.json
jq -e '(.lost_events | type == "number") and (.arcs | length > 0) and
	all(.arcs[]; (.caller | type == "string") and (.callee | type == "string") and (.count | type == "number"))' \
	g.json > /dev/null
ok $? "graph --json: arcs[] with caller, callee and count"
is "$(jq '[.arcs[] | select(.caller == "loop" and .callee == "leaf") | .count] | add' g.json)" 1000 \
	"graph --json: the arc loop -> leaf counts 1000 calls"

"$CS" info -i b.data --json > i.json
is "$(jq -c '.pids' i.json)" "[$(jq '.processes[0].pid' i.json)]" "info --json: pids lists the process"
jq -e '(.lost_events == 0) and (.events > 0) and (.overhead_ns >= 0) and (.argv[0] == "./prog")' \
	i.json > /dev/null
ok $? "info --json: events, lost events, overhead subtracted, command line"

overhead=$(jq .overhead_ns i.json)
"$CS" report -i b.data > r.txt
grep -q '^# .* calls in 1 thread; lost events: 0$' r.txt &&
	grep -Eq "^# hook overhead subtracted: [0-9]* ns per call( \([0-9]* ns per library call\))?, .* in all(, (measured in place|calibrated) .*)?$" r.txt && [ "$overhead" -gt 0 ]
ok $? "the text report says how many events were lost (even 0) and how much overhead was subtracted"

sorted self self_ns; ok $? "--sort=self orders by self time"
sorted total total_ns; ok $? "--sort=total orders by total time"
sorted calls calls; ok $? "--sort=calls orders by calls"
sorted avg avg_ns; ok $? "--sort=avg orders by time per call"
sorted max max_ns; ok $? "--sort=max orders by the longest call"
sorted name; ok $? "--sort=name orders by name"
first=$("$CS" report -i b.data --sort=calls | awk '/function$/ { getline; sub(/ \[.*/, ""); print $NF; exit }')
is "$first" "$(jq -r '.functions | max_by(.calls) | .name' r.json)" \
	"the text table sorted by calls starts with the most called function"

limited "$CS" record --clock=mono -o m.data -- ./prog 12 > /dev/null 2>&1
is "$("$CS" info -i m.data --json | jq -r .clock)" monotonic "--clock=mono records CLOCK_MONOTONIC times"
is "$(calls_of m.data fib) $(calls_of m.data leaf)" "$(calls_of b.data fib) 1000" \
	"--clock=mono: the same exact counts as the TSC"
"$CS" report -i m.data --json > r.json
bad=$(jq '[.functions[] | select(.self_ns > .total_ns or .min_ns > .max_ns)] | length' r.json)
is "$bad" 0 "--clock=mono: self <= total and min <= max"
wall=$("$CS" info -i m.data --json | jq '.threads[0].duration_ns')
main=$(jq '.functions[] | select(.name == "main") | .total_ns' r.json)
[ "$main" -gt 0 ] && [ "$main" -le "$wall" ]
ok $? "--clock=mono: main's total ($main ns) is within the thread's wall time ($wall ns)"

# The format's target: at most 6 bytes per call before compression, on a
# run long enough that the fixed sections do not count (tens of
# thousands of calls of fib and leaf; each call is an ENTRY and an EXIT).
for kind in PG CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog basic heavy -O2 $flags
	limited "$CS" record -o h.data -- ./heavy 22 > /dev/null 2>&1
	per_call=$("$CS" info -i h.data --json | jq '.file_bytes / .calls')
	jq -n --argjson b "$per_call" '$b > 0 and $b <= 6' | grep -q true
	ok $? "$kind: $per_call bytes per call, at most 6"
done

for kind in PG CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	cc -g -O2 $flags -fPIC -shared -DEXPORT_LIB -o libexport.so "$PROGS/export_lib.c"
	# shellcheck disable=SC2086
	cc -g -O2 $flags -o app "$PROGS/export_lib.c" -L. -lexport -Wl,-rpath,"$WORK"
	limited "$CS" record -o l.data -- ./app > /dev/null 2>&1
	is "$(calls_of l.data lib_work) $(calls_of l.data app_step)" "5 5" \
		"$kind: the library's function and the program's both counted"
	is "$("$CS" report -i l.data --json |
		jq -c '[.functions[] | select(.name == "lib_work") | .object | endswith("/libexport.so")]')" \
		"[true]" "$kind: lib_work is named, once, in libexport.so"
done
done_testing
