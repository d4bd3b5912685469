#!/bin/sh
# merge --keep-events keeps what record --patch patched (the PATCH
# section), each input's for its own processes: a patched run's
# functions stay the program's own in the merged file, its hooks' cost is
# still subtracted, and its report is the input's; a run of the same
# program without --patch, merged beside it, is not taken for patched.
. "$(dirname "$0")/lib.sh"

plan 5
build_prog export_work work -O2 -fno-inline -fno-optimize-sibling-calls
limited "$CS" record --patch -o a.data -- ./work 20 > /dev/null 2>&1
limited "$CS" record --patch -o b.data -- ./work 30 > /dev/null 2>&1
limited "$CS" record -o c.data -- ./work 30 > /dev/null 2>&1
"$CS" merge --keep-events -o k.data a.data b.data c.data 2> err.txt
ok $? "merge --keep-events writes the file ($(head -1 err.txt))"

pid_of() { "$CS" info -i "$1" --json | jq '.processes[0].pid'; }
"$CS" info -i a.data | grep '^patched:' | sed 's/ in 1 object;/ in 2 objects;/; s/[0-9][0-9]* of [0-9][0-9]* functions ([0-9.]*%)//' > want.txt
"$CS" info -i k.data | grep '^patched:' | sed 's/[0-9][0-9]* of [0-9][0-9]* functions ([0-9.]*%)//' > got.txt
is "$(cat got.txt)" "$(cat want.txt)" "info: the patched objects of both patched runs"
# A merged run's self times may differ from its own in the last digits,
# as in any merge (tests/t/0206 allows 1/1000); the calls, and the hooks'
# cost per call taken off, must be each run's.
calls() {
	"$CS" report -i "$1" ${2:+--pid="$2"} --json | jq -r '.functions[] | "\(.name) \(.calls)"' | sort
	"$CS" report -i "$1" ${2:+--pid="$2"} | sed -n 's/^# hook overhead subtracted: \([0-9]* ns per call\).*/\1/p'
}
is "$(calls k.data "$(pid_of a.data)")" "$(calls a.data)" \
	"the first patched run: the same calls, the same hook cost per call"
is "$(calls k.data "$(pid_of b.data)")" "$(calls b.data)" "the second's too"
"$CS" report -i c.data > c.txt
"$CS" report -i k.data --pid="$(pid_of c.data)" > kc.txt
is "$(diff c.txt kc.txt | head -4)" "" "the run without --patch: its report is the input's"
done_testing
