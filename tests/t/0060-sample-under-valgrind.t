#!/bin/sh
# A program run by valgrind with the runtime in its environment: the
# runtime then runs on valgrind's synthetic CPU, which cannot take the
# task-clock event's SIGTRAP (valgrind stops with an internal error), so the
# sampler uses the POSIX CPU-time timer there and says so once.  valgrind
# is started from a shell, as a test suite or a script starts it: Debian's
# valgrind is itself a shell script, which record refuses to run directly.
. "$(dirname "$0")/lib.sh"

command -v valgrind > /dev/null ||
	{ echo "1..0 # SKIP valgrind is not installed"; exit 0; }
plan 4
build_prog sample_hot hot -O2

LIMIT=120 limited "$CS" record --log log.txt -o v.data -- \
	sh -c 'exec valgrind --tool=memcheck -q ./hot flat 40' > out.txt 2> err.txt
rc=$?
is "$rc:$(grep -c 'VALGRIND INTERNAL ERROR' err.txt)" "0:0" \
	"the program runs to its end under valgrind (exit status $rc)"
"$CS" report -i v.data --json > r.json
ok $? "the recording reads back"
hot=$(jq '[.functions[] | select(.name == "hot") | .self_samples] | add // 0' r.json)
[ "$hot" -ge 1 ]
ok $? "the program valgrind ran was sampled: hot() has samples ($hot)"
is "$(grep -c 'running on valgrind' log.txt)" 1 "the log says once that the timer samples on valgrind"
done_testing
