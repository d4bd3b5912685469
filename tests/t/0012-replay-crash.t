#!/bin/sh
# Crash history: whatever ends the process (SIGSEGV, abort, SIGBUS, SIGFPE,
# SIGILL, SIGKILL, _exit), the replay ends at the call that was running,
# with the signal named; _exit is an exit, as exit() is, though no atexit
# handler runs; every thread's last events of a program killed mid-run
# are there.  In trace and flight mode.  Library calls are left
# out: the strcmp calls after last_call would push it out of the windows.
. "$(dirname "$0")/lib.sh"

plan 64
for mode in trace flight=64K; do
	for kind in PG CYG; do
		eval flags=\$HOOK_FLAGS_$kind
		# shellcheck disable=SC2086
		build_prog crash cr -O2 $flags
		for how in segv:SIGSEGV abort:SIGABRT bus:SIGBUS fpe:SIGFPE ill:SIGILL; do
			m=${how%%:*}
			sig=${how#*:}
			limited "$CS" record --no-libcall --mode=$mode -o c.data -- ./cr $m >/dev/null 2>&1
			"$CS" replay -i c.data --last 3 > r.txt
			grep -q "\*\*\* $sig (signal [0-9]*) in finish \*\*\*" r.txt
			ok $? "$mode $kind $m: replay names $sig in finish"
			grep "last_call" r.txt | grep -qv "still running"
			ok $? "$mode $kind $m: last_call, the call before the fault, is there and ended"
		done
		limited "$CS" record --no-libcall --mode=$mode -o c.data -- ./cr kill >/dev/null 2>&1
		"$CS" replay -i c.data --last 2 > r.txt
		grep -q "killed by signal 9" r.txt
		ok $? "$mode $kind kill: replay says the process was killed by signal 9"
		grep -v '^#' r.txt | tail -n 2 | grep -q "last_call"
		ok $? "$mode $kind kill: last_call is among the last lines"
		limited "$CS" record --no-libcall --mode=$mode -o c.data -- ./cr _exit >/dev/null 2>&1
		"$CS" replay -i c.data --last 3 > r.txt
		grep -q "without exiting normally" r.txt
		ok $((! $?)) "$mode $kind _exit: replay ends as at an exit, not as at a crash"
		grep "finish" r.txt | grep -q "still running" && grep "last_call" r.txt | grep -qv "still running"
		ok $? "$mode $kind _exit: finish was running, last_call had ended"
	done
	build_prog threads_spin ts -O2 -finstrument-functions
	rm -f fifo; mkfifo fifo
	limited "$CS" record --mode=$mode -o t.data -- ./ts > fifo 2>/dev/null &
	rec=$!
	read -r pid < fifo
	kill -KILL "$pid"
	wait $rec
	"$CS" replay -i t.data --json > r.json
	for n in 0 1 2; do
		is "$(jq --arg f spin_$n '[.threads[] | select(any(.events[]; .function == $f))] | length' r.json)" 1 \
			"$mode killed threads: spin_$n's thread has its events"
	done
	is "$(jq '[.threads[] | select(any(.events[]; (.function // "") | startswith("spin_"))) | .events | length] | min > 100' r.json)" true \
		"$mode killed threads: every spinning thread kept more than 100 events"
done
done_testing
