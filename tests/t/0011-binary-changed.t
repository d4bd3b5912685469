#!/bin/sh
# A binary rebuilt after the run is noticed by its build ID: one warning,
# its functions shown as addresses instead of wrong names, and exit 3.
. "$(dirname "$0")/lib.sh"

plan 5
build_prog basic prog -O2 -pg
limited "$CS" record -o b.data -- ./prog >/dev/null 2>&1
is "$(calls_of b.data leaf)" 1000 "before the rebuild, leaf is named"
build_prog cycle prog -O2 -pg
"$CS" report -i b.data > out.txt 2> err.txt
is "$?" 3 "report exits 3 when a binary cannot be trusted"
is "$(grep -c "changed since the run (build ID differs)" err.txt)" 1 "one warning names the change"
grep -q "prog+0x" out.txt
ok $? "functions of the changed binary are shown as addresses"
grep -qwE "is_even|is_odd|ping|pong|drive" out.txt
ok $(( $? == 0 )) "no function is given a name from the new binary"
done_testing
