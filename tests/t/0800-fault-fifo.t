#!/bin/sh
# A FIFO (or another file that is not a regular file) given as input: every
# reader says so in one line and exits non-zero at once, instead of waiting
# forever for a writer that never comes.
. "$(dirname "$0")/lib.sh"

plan 30

build_prog basic pg -O0 -pg
limited "$CS" record -o good.data -- ./pg > /dev/null 2>&1
mkfifo fifo

# refuses CMD ARGS...: fails within 10 s with one line naming 'fifo'.
refuses() {
	LIMIT=10 limited "$@" < /dev/null > out.txt 2> err.txt
	rc=$?
	ok $(( rc == 0 || rc >= 124 )) "$2 on a FIFO: fails at once (exit $rc)"
	if [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "'[^']*fifo'.*not a regular file" err.txt; then
		ok 0 "$2 on a FIFO: one line saying what is wrong"
	else
		ok 1 "$2 on a FIFO: one line saying what is wrong"
		sed 's/^/#   /' err.txt
	fi
}

refuses "$CS" info -i fifo
refuses "$CS" report -i fifo
refuses "$CS" graph -i fifo
refuses "$CS" tree -i fifo
refuses "$CS" replay -i fifo
refuses "$CS" export -i fifo --format=folded -o out.folded
refuses "$CS" merge -o m.data good.data fifo
refuses "$CS" diff good.data fifo
refuses "$CS" html -i fifo -o page.html
refuses "$CS" annotate -i fifo main
refuses "$CS" optimize -i fifo -o order
refuses "$CS" gprof -b ./pg fifo
refuses "$CS" gprof -b fifo
build_prog basic gp -O0 -pg
limited ./gp > /dev/null && mv gmon.out gp.gmon
refuses "$CS" gprof -b ./gp gp.gmon fifo

# a source file the page would show became a FIFO: the page is written
# without that file's lines
mkdir src && cp "$PROGS/basic.c" src/basic.c
(cd src && cc -g -O0 -pg -o ../srcprog basic.c)
limited "$CS" record -o src.data -- ./srcprog > /dev/null 2>&1
rm src/basic.c && mkfifo src/basic.c
LIMIT=10 limited "$CS" html -i src.data -o src.html > /dev/null 2> err.txt
rc=$?
ok $(( rc >= 124 )) "html with a source file that is a FIFO does not hang (exit $rc)"
[ -s src.html ]
ok $? "and writes the page"
done_testing
