#!/bin/sh
# Calls of libc functions the runtime stands in for are traced under
# libc's names as any library call is, in every hook kind and under
# --patch: pthread_sigmask and sigprocmask (3 each), bsd_signal and
# sysv_signal (1 each), counted exactly.
. "$(dirname "$0")/lib.sh"

plan 8
counts() {
	"$CS" report -i "$1" --json |
		jq -r '[.functions[] | select(.name | test("^(pthread_sigmask|sigprocmask|bsd_signal|sysv_signal)$")) | "\(.name)=\(.calls)"] | sort | join(" ")'
}
for flags in "$HOOK_FLAGS_PG" "$HOOK_FLAGS_FENTRY" "$HOOK_FLAGS_CYG" patch; do
	build_hook_kind mask_calls app "$flags" -O1
	limited "$CS" record -q $RECORD_OPT -o m.data -- ./app > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:done" "$flags: the program runs as without record"
	is "$(counts m.data)" "bsd_signal=1 pthread_sigmask=3 sigprocmask=3 sysv_signal=1" \
		"$flags: each stand-in counted exactly, by libc's name"
done
done_testing
