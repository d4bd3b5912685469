#!/bin/sh
# Threads started by an un-instrumented program are sampled too (the
# runtime's pthread_create), each in proportion to its CPU time: three
# threads doing work in the ratio 1:2:3.
. "$(dirname "$0")/lib.sh"

plan 4
build_prog sample_threads th -O2
limited "$CS" record -o t.data -- ./th 4 > /dev/null 2>&1
is "$?" 0 "record succeeds"
"$CS" report -i t.data --thread --json > t.json
is "$(jq '[.threads[] | select((.samples // 0) > 0)] | length' t.json)" 3 \
	"three threads have samples"
set -- $(jq -r '[.threads[] | select((.samples // 0) > 0) | .samples] | sort | .[]' t.json)
echo "# samples per thread: $*"
awk -v a="$1" -v b="$2" 'BEGIN { r = b / a; exit !(r >= 1.4 && r <= 2.8) }'
ok $? "the second thread has about twice the first's samples ($1, $2)"
awk -v a="$1" -v c="$3" 'BEGIN { r = c / a; exit !(r >= 2.1 && r <= 4.2) }'
ok $? "the third thread has about three times the first's samples ($1, $3)"
done_testing
