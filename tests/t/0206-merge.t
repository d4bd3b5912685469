#!/bin/sh
# merge: two runs of one program become one recording whose counts are
# the sums; runs of another program are refused unless --force;
# --keep-events keeps every process and thread instead of summing, and
# refuses a sum, which has no events left to keep.
. "$(dirname "$0")/lib.sh"

plan 12
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record -o a.data -- ./work 20 >/dev/null 2>&1
limited "$CS" record -o b.data -- ./work 30 >/dev/null 2>&1
"$CS" merge -o m.data a.data b.data 2>/dev/null
ok $? "merge writes the file"
is "$(calls_of m.data burn)" 50 "burn: 20 + 30 calls"
is "$(calls_of m.data leaf)" 10000 "leaf: 5000 + 5000 calls"
is "$("$CS" info -i m.data --json | jq -c .sum)" '{"runs":2,"processes":2,"threads":2}' \
	"the sum says what went into it"
a=$("$CS" report -i a.data --json | jq '[.functions[].self_ns] | add')
b=$("$CS" report -i b.data --json | jq '[.functions[].self_ns] | add')
m=$("$CS" report -i m.data --json | jq '[.functions[].self_ns] | add')
# The second run's clock ticks are read at the first run's rate, which
# each recording measures for itself: a few parts per million apart.
awk -v m="$m" -v s="$((a + b))" 'BEGIN { d = m - s; exit !(d < s / 1000 && -d < s / 1000) }'
ok $? "self time adds up ($m ns merged, $a + $b ns apart)"
"$CS" merge -o self.data a.data a.data 2>/dev/null
is "$(calls_of self.data burn)" 40 "a file merged with itself counts twice"

"$CS" merge --keep-events -o k.data a.data b.data 2>/dev/null
is "$("$CS" info -i k.data | awk '/^processes:/ { print $2 }')" 2 "--keep-events: both processes are there"
is "$(calls_of k.data burn) $("$CS" replay -i k.data | grep -c 'burn$')" "50 50" \
	"--keep-events: the same sums, every call still there for replay"

"$CS" merge --keep-events -o km.data a.data m.data 2>err.txt
rc=$?
[ $rc -ne 0 ] && [ ! -e km.data ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'summed profile' err.txt
ok $? "--keep-events refuses a sum, whose events are gone: $(cat err.txt)"

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
