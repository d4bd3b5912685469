#!/bin/sh
# Signal handlers run as "<signal N>" calls; --signal-filter shows them
# separately, leaves their time out of the interrupted call, or nests the
# handler's calls under it, in trace and in count mode.  The program keeps
# seeing its own handler.
. "$(dirname "$0")/lib.sh"

plan 34
# total DATA FUNCTION [report options]: FUNCTION's total_ns.
total() {
	data=$1 fn=$2
	shift 2
	"$CS" report -i "$data" --json "$@" | jq --arg f "$fn" '[.functions[] | select(.name==$f) | .total_ns] | add'
}
# excluded DATA LABEL: with exclude, busy's total is its separate total
# less the handler's (within 2 %).
excluded() {
	want=$(( $(total "$1" busy) - $(total "$1" '<signal 14>') ))
	exc=$(total "$1" busy --signal-filter=exclude)
	diff=$(( exc > want ? exc - want : want - exc ))
	ok $(( diff * 50 > want )) "$2: exclude: busy's total ($exc) is its separate total less the handler's ($want)"
}
for kind in PG CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog sighandler sh -O2 $flags
	limited "$CS" record -o s.data -- ./sh >runs.txt 2>/dev/null
	is "$?" 0 "$kind: sigaction gives the program its own handler back"
	# The timer may fire once more after busy() returns: the program
	# prints how often its handler ran, at least 20.
	runs=$(cat runs.txt)
	is "$(calls_of s.data '<signal 14>')" "$runs" "$kind: separate: every handler run ($runs) is a <signal 14> call"
	"$CS" graph -i s.data --json > g.json
	is "$(jq -r '[.arcs[] | select(.callee=="on_alarm") | .caller] | unique | join(",")' g.json)" \
		"<signal 14>" "$kind: separate: on_alarm is called by <signal 14>"
	is "$(calls_of s.data on_alarm --signal-filter=exclude)" 0 "$kind: exclude: the handler's calls are gone"
	excluded s.data "$kind"
	"$CS" graph -i s.data --json --signal-filter=none > n.json
	is "$(jq -r '[.arcs[] | select(.callee=="on_alarm") | .caller] | unique | join(",")' n.json)" \
		"busy" "$kind: none: on_alarm nests under the interrupted busy"
	is "$(jq '[.functions[] | select(.name | startswith("<signal"))] | length' n.json)" 0 \
		"$kind: none: no <signal N> node"
	"$CS" report -i s.data --signal-filter=bogus >/dev/null 2>err.txt
	is "$?" 2 "$kind: a bad --signal-filter is a usage error"

	# count mode keeps "<signal N>" as a path: the filters apply to it too
	limited "$CS" record --mode=count -o c.data -- ./sh >cruns.txt 2>/dev/null
	runs=$(cat cruns.txt)
	is "$(calls_of c.data '<signal 14>')" "$runs" "$kind count: every handler run ($runs) is a <signal 14> call"
	arcs() { "$CS" graph -i "$1" --json --signal-filter="$2" | jq -c '[.arcs[] | "\(.caller)>\(.callee)"] | sort'; }
	for f in separate exclude none; do
		is "$(arcs c.data $f)" "$(arcs s.data $f)" "$kind count: --signal-filter=$f gives the trace's arcs"
	done
	excluded c.data "$kind count"
	# paths PARENT/CHILD of the tree under a filter, in both modes
	tree_arcs() {
		"$CS" tree -i "$1" --json --signal-filter="$2" |
			jq -c '[.. | objects | select(has("children")) | .name as $p | .children[] | "\($p)/\(.name)"] | sort'
	}
	for d in s.data c.data; do
		tree_arcs $d none | grep -q '"busy/on_alarm"' && ! tree_arcs $d none | grep -q '<signal'
		ok $? "$kind $d: tree --signal-filter=none hangs on_alarm from busy"
		! tree_arcs $d exclude | grep -q 'on_alarm\|<signal'
		ok $? "$kind $d: tree --signal-filter=exclude leaves the handler out"
	done
done
done_testing
