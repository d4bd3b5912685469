#!/bin/sh
# Signal handlers run as "<signal N>" calls; --signal-filter shows them
# separately, leaves their time out of the interrupted call, or nests the
# handler's calls under it.  The program keeps seeing its own handler.
. "$(dirname "$0")/lib.sh"

plan 16
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
	sep=$("$CS" report -i s.data --json | jq '[.functions[] | select(.name=="busy") | .total_ns] | add')
	sig=$("$CS" report -i s.data --json | jq '[.functions[] | select(.name=="<signal 14>") | .total_ns] | add')
	exc=$("$CS" report -i s.data --json --signal-filter=exclude | jq '[.functions[] | select(.name=="busy") | .total_ns] | add')
	want=$((sep - sig))
	diff=$(( exc > want ? exc - want : want - exc ))
	ok $(( diff * 50 > want )) "$kind: exclude: busy's total ($exc) is its separate total less the handler's ($want)"
	"$CS" graph -i s.data --json --signal-filter=none > n.json
	is "$(jq -r '[.arcs[] | select(.callee=="on_alarm") | .caller] | unique | join(",")' n.json)" \
		"busy" "$kind: none: on_alarm nests under the interrupted busy"
	is "$(jq '[.functions[] | select(.name | startswith("<signal"))] | length' n.json)" 0 \
		"$kind: none: no <signal N> node"
	"$CS" report -i s.data --signal-filter=bogus >/dev/null 2>err.txt
	is "$?" 2 "$kind: a bad --signal-filter is a usage error"
done
done_testing
