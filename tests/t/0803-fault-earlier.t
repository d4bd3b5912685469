#!/bin/sh
# Recording again over an earlier recording keeps the earlier one as
# PATH.old, as perf keeps perf.data.old, instead of replacing it silently.
. "$(dirname "$0")/lib.sh"

plan 5

build_prog fault_threads ft -O0 -finstrument-functions
limited "$CS" record -o run.data -- ./ft 1 10 > /dev/null 2>&1
cp run.data first.data
limited "$CS" record -o run.data -- ./ft 2 20 > /dev/null 2>&1
cmp -s run.data.old first.data
ok $? "the first recording is kept as run.data.old"
is "$(calls_of run.data work)" 40 "run.data is the second run"
cp run.data second.data
limited "$CS" record -o run.data -- ./ft 1 30 > /dev/null 2>&1
cmp -s run.data.old second.data
ok $? "a third run keeps the second as run.data.old"
is "$(calls_of run.data work)" 30 "run.data is the third run"
[ ! -e run.data.old.old ]
ok $? "only one earlier recording is kept"
done_testing
