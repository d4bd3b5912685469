#!/bin/sh
# A file size limit (ulimit -f) smaller than the sealed recording: record
# and merge are not killed by SIGXFSZ; they say the file is too large,
# leave no temporary file behind, and record keeps what the program wrote
# in its staging directory, which every reader accepts as a recording.
. "$(dirname "$0")/lib.sh"

plan 7

build_prog fault_threads ft -O2 -finstrument-functions
# each thread's buffer stays under 1000 KB; the three of them together do not
(ulimit -f 1000; limited "$CS" record -o lim.data -- ./ft 3 400000 > /dev/null 2> err.txt)
rc=$?
ok $(( rc == 0 || rc > 128 )) "record is not killed by SIGXFSZ (exit $rc)"
grep -q "cannot write 'lim.data': File too large" err.txt
ok $? "record says the recording is too large" || sed 's/^/#   /' err.txt
ls -a | grep -q 'lim.data.tmp'
ok $(( ! $? )) "no temporary file is left"

limited "$CS" record -o small.data -- ./ft 1 100 > /dev/null 2>&1
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
