#!/bin/sh
# A program killed with SIGKILL while it is busy calling functions: every
# call recorded before the kill is in the data (the last one possibly cut
# short), and the reports read it.
. "$(dirname "$0")/lib.sh"

plan 8
for kind in PG CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog spin spin -O2 $flags
	rm -f fifo; mkfifo fifo
	limited "$CS" record -o s.data -- ./spin > fifo 2>/dev/null &
	recorder=$!
	read -r pid < fifo
	sleep 0.2
	kill -KILL "$pid"
	wait $recorder
	is "$?" 137 "$kind: record reports the kill as 128+9"
	calls=$(calls_of s.data tick)
	ok $(( calls < 10000 )) "$kind: at least the 10000 calls before the pid was printed are there ($calls)"
	"$CS" info -i s.data --json > i.json
	is "$(jq '.processes[0].exited_normally' i.json)" false "$kind: the process is marked as not exiting normally"
	"$CS" report -i s.data --json > r.json
	is "$(jq '[.functions[] | select(.name=="main") | .virtual_returns] | add' r.json)" 1 \
		"$kind: main closed as a virtual return"
done
done_testing
