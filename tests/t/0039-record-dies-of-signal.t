#!/bin/sh
# A program killed by a signal kills record with the same signal once the
# recording is sealed, so a caller sees a death by that signal (as test
# harnesses expecting a crash ask), not an exit with status 128 + N; a
# shell's $? still says 128 + N.
. "$(dirname "$0")/lib.sh"

plan 6
build_prog crash crash -O2 -pg
# how PROGRAM ended, as a harness that waits for it sees it
ended() {
	perl -e 'system(@ARGV); my $s = $?;
		print $s & 127 ? "signal " . ($s & 127) : "exit " . ($s >> 8)' -- "$@"
}
is "$(ended "$CS" record -q -o a.data -- ./crash abort 2> /dev/null)" "signal 6" \
	"an abort is a death by SIGABRT"
is "$("$CS" info -i a.data --json | jq -r .exit)" "killed by signal 6 (Aborted)" \
	"the recording is sealed first"
is "$(ended "$CS" record -q -o s.data -- ./crash segv 2> /dev/null)" "signal 11" \
	"a segmentation fault is a death by SIGSEGV"
is "$(ended "$CS" record -q -o k.data -- ./crash kill 2> /dev/null)" "signal 9" \
	"a SIGKILL is a death by SIGKILL"
is "$(ended "$CS" record -q -o e.data -- ./crash exit 2> /dev/null)" "exit 5" "an exit is passed on as it was"
limited "$CS" record -q -o a.data -- ./crash abort > /dev/null 2>&1
is "$?" 134 "a shell's \$? says 128 + 6"
done_testing
