#!/bin/sh
# A truncated copy of a binary or an object file (its section headers,
# at the end, cut off) is said to be damaged, in one line, by every
# command that reads one a user hands it: gprof's program, optimize's
# --binary and --objects, and the report's recorded program.  libelf
# shows such a file as one without sections, which read as "stripped",
# "no .text", or an object without code, or silently gave addresses.
. "$(dirname "$0")/lib.sh"

plan 9

# one_line_error NAME EXPECTED-PATTERN COMMAND...: fails with one line.
one_line_error() {
	name=$1
	pattern=$2
	shift 2
	limited "$@" > /dev/null 2> err.txt
	rc=$?
	ok $(( rc == 0 || rc >= 124 )) "$name: non-zero exit without crash (got $rc)"
	if [ "$(wc -l < err.txt)" -eq 1 ] && grep -q -- "$pattern" err.txt; then
		ok 0 "$name: one clear line"
	else
		ok 1 "$name: one clear line"
		sed 's/^/#   /' err.txt >&2
	fi
}

# half FILE OUT: the first half of FILE
half() { head -c $(($(stat -c %s "$1") / 2)) "$1" > "$2"; }

mkdir run
build_prog cycle run/pg -O1 -pg -ffunction-sections
gmon_of run/pg
limited "$CS" record -o c.data -- ./run/pg > /dev/null 2>&1
ok $? "a -pg program is recorded"
cc -g -O1 -ffunction-sections -c -o cycle.o "$PROGS/cycle.c"
cc -o rel cycle.o

half run/pg pg.half
one_line_error "gprof, truncated program" \
	"'pg.half' is damaged: its section headers lie past its end (a truncated copy?); give the profiled executable" \
	"$CS" gprof -b pg.half gmon.out
one_line_error "optimize --binary, truncated" \
	"'pg.half' is damaged: its section headers lie past its end (a truncated copy?); give the program's binary" \
	"$CS" optimize -i c.data --binary pg.half -o out
half cycle.o cycle.half.o
one_line_error "optimize --objects, truncated object" \
	"'cycle.half.o' is damaged: its section headers lie past its end (a truncated copy?); give the .o or .a files" \
	"$CS" optimize -i c.data --binary rel --objects cycle.half.o -o out

# the recorded program, truncated after the run: a warning, and addresses
cp run/pg pg.whole
half pg.whole run/pg
limited "$CS" report -i c.data > r.txt 2> err.txt
rc=$?
ok $(( rc == 0 || rc >= 124 )) "report, truncated program: non-zero exit without crash (got $rc)"
grep -q "warning: cannot read '.*/run/pg': its section headers lie past its end (a truncated copy?); its functions are shown as addresses" err.txt
ok $? "report, truncated program: the warning says why there are no names"
done_testing
