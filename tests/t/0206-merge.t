#!/bin/sh
# merge: two runs of one program become one recording whose counts are
# the sums; runs of another program are refused unless --force.
. "$(dirname "$0")/lib.sh"

plan 9
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record -o a.data -- ./work 20 >/dev/null 2>&1
limited "$CS" record -o b.data -- ./work 30 >/dev/null 2>&1
"$CS" merge -o m.data a.data b.data 2>/dev/null
ok $? "merge writes the file"
is "$(calls_of m.data burn)" 50 "burn: 20 + 30 calls"
is "$(calls_of m.data leaf)" 10000 "leaf: 5000 + 5000 calls"
is "$("$CS" info -i m.data | awk '/^processes:/ { print $2 }')" 2 "both processes are there"
a=$("$CS" report -i a.data --json | jq '[.functions[].self_ns] | add')
b=$("$CS" report -i b.data --json | jq '[.functions[].self_ns] | add')
m=$("$CS" report -i m.data --json | jq '[.functions[].self_ns] | add')
# The second run's clock ticks are read at the first run's rate, which
# each recording measures for itself: a few parts per million apart.
awk -v m="$m" -v s="$((a + b))" 'BEGIN { d = m - s; exit !(d < s / 1000 && -d < s / 1000) }'
ok $? "self time adds up ($m ns merged, $a + $b ns apart)"
"$CS" merge -o self.data a.data a.data 2>/dev/null
is "$(calls_of self.data burn)" 40 "a file merged with itself counts twice"

build_prog basic other -O2 -pg
limited "$CS" record -o o.data -- ./other 10 >/dev/null 2>&1
"$CS" merge -o x.data a.data o.data 2>err.txt
rc=$?
[ $rc -ne 0 ] && [ ! -e x.data ] && [ "$(wc -l <err.txt)" -eq 1 ]
ok $? "another program refused: exit $rc, no output, one line"
grep -q 'another program' err.txt
ok $? "the message says why: $(cat err.txt)"
"$CS" merge --force -o x.data a.data o.data 2>/dev/null
is "$(calls_of x.data fib) $(calls_of x.data burn)" "$(calls_of o.data fib) 20" "--force merges them"
done_testing
