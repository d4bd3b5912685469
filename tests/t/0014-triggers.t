#!/bin/sh
# --start-at / --stop-at / --one-pass: calls outside the window are absent,
# inside it exact; bad names are refused before the program runs.
. "$(dirname "$0")/lib.sh"

plan 19
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
done
limited "$CS" record --start-at=no_such_function -o n.data -- ./ph >out.txt 2>err.txt
ok $(( $? == 0 )) "an unknown trigger name is refused"
done_testing
