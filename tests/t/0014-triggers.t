#!/bin/sh
# --start-at / --stop-at / --one-pass: calls outside the window are absent,
# inside it exact, in trace and count mode; bad names are refused before the
# program runs.
. "$(dirname "$0")/lib.sh"

plan 40
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog phases ph -O2 $flags
	limited "$CS" record --start-at=measured --stop-at=cooldown -o w.data -- ./ph >/dev/null 2>&1
	is "$(calls_of w.data x)" 100 "$kind: x counted in both measured windows only"
	is "$(calls_of w.data measured)" 2 "$kind: measured entered twice inside the windows"
	is "$(calls_of w.data warmup)" 0 "$kind: nothing before the first start"
	is "$(calls_of w.data cooldown)" 0 "$kind: the stop function itself is outside"
	limited "$CS" record --start-at=measured --stop-at=cooldown --one-pass -o o.data -- ./ph >/dev/null 2>&1
	is "$(calls_of o.data x)" 50 "$kind: --one-pass keeps the first window only"
	is "$("$CS" info -i w.data --json | jq .stops)" 2 "$kind: each stop is recorded"

	# count mode sums in the program: the same windows, the same paths
	limited "$CS" record --mode=count --start-at=measured --stop-at=cooldown -o wc.data -- ./ph >/dev/null 2>&1
	is "$(calls_of wc.data x) $(calls_of wc.data measured)" "100 2" "$kind count: x and measured inside the windows only"
	is "$(calls_of wc.data warmup) $(calls_of wc.data cooldown)" "0 0" "$kind count: warmup and cooldown outside"
	"$CS" export -i w.data --format=folded --value=calls -o - | sort > w.folded
	"$CS" export -i wc.data --format=folded --value=calls -o - | sort > wc.folded
	cmp -s w.folded wc.folded
	ok $? "$kind count: the window's call paths are the trace's"
	is "$("$CS" info -i wc.data --json | jq .lost_events)" 0 "$kind count: stopping loses nothing"
	# no stop: main, running when capture starts, is no call of either
	limited "$CS" record --start-at=measured -o s.data -- ./ph >/dev/null 2>&1
	limited "$CS" record --mode=count --start-at=measured -o sc.data -- ./ph >/dev/null 2>&1
	"$CS" export -i s.data --format=folded --value=calls -o - | sort > s.folded
	"$CS" export -i sc.data --format=folded --value=calls -o - | sort > sc.folded
	[ -s s.folded ] && cmp -s s.folded sc.folded && [ "$(calls_of sc.data main)" = 0 ]
	ok $? "$kind count: --start-at alone: the trace's paths, and main, already running, not a call"
	limited "$CS" record --mode=count --start-at=measured --stop-at=cooldown --one-pass -o oc.data -- ./ph >/dev/null 2>&1
	is "$(calls_of oc.data x)" 50 "$kind count: --one-pass keeps the first window only"
	limited "$CS" record --mode=count --start-stopped -o sc.data -- ./ph >/dev/null 2>err.txt
	ok $(( $? != 2 || $(wc -l < err.txt) != 1 )) \
		"$kind count: --start-stopped, which the program could never end here, is refused"
done
limited "$CS" record --start-at=no_such_function -o n.data -- ./ph >out.txt 2>err.txt
ok $(( $? == 0 )) "an unknown trigger name is refused"
done_testing
