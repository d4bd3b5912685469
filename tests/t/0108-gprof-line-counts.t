#!/bin/sh
# gprof -l -A -x of a program built with -pg --coverage: one run gives
# gmon.out and gcov's counts, and the annotated source shows, tcov style,
# every line with code and how often it ran (##### if never), as GNU
# gprof's documentation describes -A -x with basic-block counts.  The
# counts equal gcov's own report line for line; the top list and the
# summary count those lines; without -x (or without --coverage) -A stays
# gprof's; stale counts are one line and an error, never zeros.
. "$(dirname "$0")/lib.sh"

if ! command -v gcov > /dev/null 2>&1; then
	echo "1..0 # skip gcov (gcc) is not installed"
	exit 0
fi

# counts FILE: "LINE:COUNT" of every line gcov -t counted
gcov_counts() { sed -n 's/^ *\([0-9#]*\): *\([0-9]*\):.*/\2:\1/p' "$1" | grep -v '^0:' | grep -v ':-$'; }
# ours FILE SOURCE: the same from -A's layout, the source's lines in order
# after the "seconds calls" heading
ours() {
	n=$(wc -l < "$2")
	sed -n '/^ *seconds *calls$/,$p' "$1" | sed -n "2,$((n + 1))p" |
		awk '{ if (match($0, /^[0-9. ]* +[0-9#]+ -> /)) {
			c = substr($0, 1, RLENGTH); sub(/ ->.*/, "", c); sub(/.* /, "", c)
			print NR ":" c } }'
}

plan 7
cp "$PROGS/error_paths.c" ep.c
gcc -O0 -g -pg --coverage -o ep ep.c
./ep > /dev/null
gcov -t ep-ep.gcda > gcov.txt 2> /dev/null || gcov -t ep.gcda > gcov.txt 2> /dev/null
gcov_counts gcov.txt > want.txt
"$CS" gprof -b -l -A -x ep gmon.out > a.txt
is "$?" 0 "gprof -l -A -x runs"
ours a.txt ep.c > got.txt
is "$(wc -l < want.txt | tr -d ' ') $(cmp -s want.txt got.txt && echo same)" "23 same" \
	"every line's count equals gcov's own report"
is "$(grep -c '##### -> .*report_error("negative");' a.txt) $(grep -c ' 11 -> .*for (int i' a.txt)" "1 1" \
	"a never-run line is #####, a loop's line has its executions"
is "$(sed -n '/^Top 10 Lines:/,/^Execution/p' a.txt | awk 'NF == 2 && $1 ~ /^[0-9]+$/' | head -1 | tr -s ' ')" \
	" 41 11" "the top list is by executions"
is "$(grep -E 'Executable lines|Lines executed|Total number of line executions' a.txt | awk '{print $1}' | paste -sd' ')" \
	"23 10 56" "the summary counts gcov's lines: 23 with code, 10 ran, 56 executions"
"$CS" gprof -b -l -A ep gmon.out > nox.txt
is "$(grep -c -- '->' nox.txt) $(grep -c -- '-> .*for (int i' nox.txt)" "7 0" \
	"without -x, -A shows only the functions' calls, as before"
sleep 1
touch ep.c
"$CS" gprof -b -l -A -x ep gmon.out > /dev/null 2> err.txt
is "$(test $? -ne 0 && echo fails) $(wc -l < err.txt) $(grep -c 'stale' err.txt)" "fails 1 1" \
	"a source changed since the build: one line, an error"
done_testing
