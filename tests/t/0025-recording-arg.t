#!/bin/sh
# Every command that reads a recording (optimize without --objects too)
# takes it as one positional PATH,
# as gprof takes its gmon.out, with the same result as -i PATH; both at
# once, or two, are a usage error of one line.
. "$(dirname "$0")/lib.sh"

plan 18
build_prog basic b -O2 -pg
limited "$CS" record -o run.data -- ./b 10 > /dev/null 2>&1
for cmd in report graph tree replay info "export --format=folded -o -"; do
	name=${cmd%% *}
	# shellcheck disable=SC2086
	"$CS" $cmd -i run.data > a.txt 2>&1
	# shellcheck disable=SC2086
	"$CS" $cmd run.data > b.txt 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -s a.txt ] && cmp -s a.txt b.txt; then
		ok 0 "$name run.data: the same output as $name -i run.data"
	else
		ok 1 "$name run.data: the same output as $name -i run.data (exit $rc)"
		head -n 3 b.txt | sed 's/^/#   /'
	fi
	# shellcheck disable=SC2086
	"$CS" $cmd -i run.data run.data > /dev/null 2> err.txt
	rc=$?
	is "$rc $(wc -l < err.txt)" "2 1" "$name -i run.data run.data: one line, usage exit"
done
"$CS" html run.data -o page.html > /dev/null 2>&1
ok $? "html run.data: writes the page"
grep -q "basic.c\|loop" page.html
ok $? "html run.data: the page holds the recording's functions"
"$CS" annotate -i run.data loop > a.txt 2>&1
rc_a=$?
"$CS" annotate loop run.data > b.txt 2>&1
is "$? $(cat b.txt)" "$rc_a $(cat a.txt)" "annotate FUNC run.data: as annotate -i run.data FUNC"
"$CS" optimize -i run.data -o o1 > /dev/null 2>&1
"$CS" optimize run.data -o o2 > /dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ -s o1.order ] && cmp -s o1.order o2.order
ok $? "optimize run.data: the same link order as optimize -i run.data (exit $rc)"
"$CS" optimize -i run.data run.data -o o3 > /dev/null 2> err.txt
is "$? $(wc -l < err.txt)" "2 1" "optimize -i run.data run.data: one line, usage exit"
"$CS" report run.data other.data > /dev/null 2> err.txt
is "$? $(wc -l < err.txt)" "2 1" "report with two recordings: one line, usage exit"
done_testing
