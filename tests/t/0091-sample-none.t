#!/bin/sh
# A program without hooks that ends before the first sample: the report is
# a sampled run's, saying that no sample was taken and what to do, not a
# trace's header over an empty table.
. "$(dirname "$0")/lib.sh"

plan 3
limited "$CS" record -o t.data -- /bin/true > /dev/null 2>&1
"$CS" report -i t.data > r.txt
is "$?" 0 "report of a sampled run with no sample succeeds"
grep -q '^# no sample was taken: the program ran for less than a sampling period' r.txt
ok $? "it says no sample was taken, and why"
grep -q 'hook overhead subtracted' r.txt
ok $(( $? == 0 )) "no trace header for a run without hooks"
