#!/bin/sh
# Forged and degenerate recordings: a session whose clock readings pass
# every check but give an impossible TSC rate, so that every time is
# multiplied out of any integer's range; an empty file; a program with no
# source lines for the page.  Every reader gives plausible numbers or one
# clear line, and nothing it computes is undefined (the sanitizer build,
# scripts/test-sanitized.sh, stops at the first undefined operation).
. "$(dirname "$0")/lib.sh"

plan 16

build_prog basic pg -O0 -pg
limited "$CS" record --clock=tsc -o trace.data -- ./pg > /dev/null 2>&1
limited "$CS" record --clock=tsc --mode=count -o count.data -- ./pg > /dev/null 2>&1
# session fields (docs/FORMAT.md): 0 TSC start, 8 ns start, 16 TSC end,
# 24 ns end; one tick apart, 2^62 ns apart
for m in trace count; do
	cp $m.data forged-$m.data
	perl "$ROOT/tests/t/session_forge.pl" forged-$m.data \
		0=1000 16=1001 8=0 24=4611686018427387904
done

for m in trace count; do
	calls=$("$CS" info -i $m.data --json | jq .calls)
	"$CS" info -i forged-$m.data --json > info.json 2> err.txt
	ok $? "$m: info reads the forged session"
	is "$(jq .calls info.json)" "$calls" "$m: the calls are those recorded"
	is "$(jq .ns_per_clock_unit info.json)" 1 "$m: an impossible TSC rate is not used to scale times"
	is "$(jq '.overhead_ns_per_call < 1000000' info.json)" true \
		"$m: the hooks' cost per call is plausible ($(jq .overhead_ns_per_call info.json) ns)"
	for cmd in report tree graph; do
		"$CS" $cmd -i forged-$m.data > out.txt 2> err.txt
		rc=$?
		[ $rc -eq 0 ] && [ ! -s err.txt ]
		ok $? "$m: $cmd reads it (exit $rc)" || sed 's/^/#   /' err.txt
	done
done

: > empty.data
"$CS" info -i empty.data > /dev/null 2> err.txt
is "$(cat err.txt)" "callscope: 'empty.data' is damaged: the file is empty; record again" \
	"an empty file: one line"
# no debug information: the page has no source lines to sort
cc -O0 -pg -o nolines "$PROGS/basic.c"
limited "$CS" record -o nolines.data -- ./nolines > /dev/null 2>&1
"$CS" html -i nolines.data -o nolines.html > /dev/null 2> err.txt
ok $? "a page without source lines is written" || sed 's/^/#   /' err.txt
done_testing
