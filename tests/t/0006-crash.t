#!/bin/sh
# Nothing recorded is lost when the program dies: SIGKILL, _exit, abort,
# SIGSEGV.  The exit status is passed through and still-open calls are
# closed as virtual returns.
. "$(dirname "$0")/lib.sh"

plan 36
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog crash cr -O2 $flags
	for how in kill:137 _exit:7 abort:134 segv:139; do
		mode=${how%%:*}
		want=${how#*:}
		rm -f cr.data
		limited "$CS" record -o cr.data -- ./cr "$mode" >/dev/null 2>err.txt
		rc=$?
		is "$rc" "$want" "$kind $mode: exit status passed through"
		[ "$rc" = "$want" ] || sed 's/^/#   record said: /' err.txt
		is "$(calls_of cr.data last_call)" 1 "$kind $mode: the last call before death is in the data"
		is "$("$CS" report -i cr.data --json | jq '[.functions[] | select(.name=="finish") | .virtual_returns] | add')" 1 \
			"$kind $mode: finish is closed as a virtual return"
	done
done
done_testing
