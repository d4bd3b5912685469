#!/bin/sh
# A file size limit (ulimit -f) smaller than the sealed recording: record
# and merge are not killed by SIGXFSZ; they say the file is too large,
# leave no temporary file behind, and record keeps what the program wrote
# in its staging directory, which every reader accepts as a recording.
. "$(dirname "$0")/lib.sh"

plan 12

build_prog fault_threads ft -O2 -finstrument-functions
# each thread's buffer stays under 1000 KB; the three of them together do not
(ulimit -f 1000; limited "$CS" record --mode=trace --outside-freq=0 -o lim.data -- ./ft 3 400000 > /dev/null 2> err.txt)
rc=$?
ok $(( rc == 0 || rc > 128 )) "record is not killed by SIGXFSZ (exit $rc)"
grep -q "cannot write 'lim.data': File too large" err.txt
ok $? "record says the recording is too large" || sed 's/^/#   /' err.txt
ls -a | grep -q 'lim.data.tmp'
ok $(( ! $? )) "no temporary file is left"
staging=$(ls -d .callscope-* 2> /dev/null | head -n 1)
grep -q "the recording stays in '\(\./\)\?$staging': read it there" err.txt
ok $? "record names the staging directory it kept and what to do with it"
limited "$CS" record --mode=trace --outside-freq=0 -o full.data -- ./ft 3 400000 > /dev/null 2>&1
all=$("$CS" info -i full.data --json | jq .events)
"$CS" info -i "$staging" --json > info.json 2> err.txt
ok $? "info reads the staging directory" || sed 's/^/#   /' err.txt
conserved "$staging" "$all" "the staging directory"
is "$(jq -c .argv info.json)" '["./ft","3","400000"]' "with the session of the run"
limited "$CS" merge --keep-events -o sealed.data "$staging" > /dev/null 2>&1
is "$("$CS" info -i sealed.data --json | jq .events)" "$(jq .events info.json)" \
	"merge -o writes it as a data file where there is room"

limited "$CS" record --mode=trace --outside-freq=0 -o small.data -- ./ft 1 100 > /dev/null 2>&1
(ulimit -f 1; "$CS" merge -o m.data small.data small.data > /dev/null 2> err.txt)
rc=$?
ok $(( rc == 0 || rc > 128 )) "merge is not killed by SIGXFSZ (exit $rc)"
grep -q "m.data.*File too large" err.txt
ok $? "merge says the output is too large" || sed 's/^/#   /' err.txt
ls -a | grep -q 'm.data.tmp'
ok $(( ! $? )) "merge leaves no temporary file"
[ ! -e m.data ]
ok $? "and no output"
done_testing
