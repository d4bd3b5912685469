#!/bin/sh
# annotate --counts: a program built with -pg --coverage gives, from one
# run, each source line's execution count (read with gcov's own reader)
# beside the recording's calls and times.  The counts equal gcov's own
# report line for line; never-run lines are #####, the hottest flagged;
# --json lists {file, line, count}; a function or file narrows it;
# report --lines --counts lists the lines by executions; stale
# or missing counts are one line and an error, never zeros.
. "$(dirname "$0")/lib.sh"

if ! command -v gcov > /dev/null 2>&1; then
	echo "1..0 # skip gcov (gcc) is not installed"
	exit 0
fi

# counts FILE: "LINE:COUNT" of every line with code, in gcov -t's layout
# or annotate's (whose first column is the hottest-line flag)
counts() { sed -n 's/^[> ]\{0,2\} *\([0-9#]*\): *\([0-9]*\):.*/\2:\1/p' "$1" | grep -v '^0:'; }

plan 11
cp "$PROGS/error_paths.c" ep.c
gcc -O0 -g -pg --coverage -o ep ep.c
limited "$CS" record -o ep.data -- ./ep > /dev/null 2>&1
"$CS" annotate --counts -i ep.data > a.txt
is "$?" 0 "annotate --counts runs"
gcov -t ep.gcda > gcov.txt 2> /dev/null || gcov -t ep-ep.gcda > gcov.txt 2> /dev/null
counts gcov.txt > want.txt
counts a.txt > got.txt
is "$(wc -l < want.txt | tr -d ' ') $(cmp -s want.txt got.txt && echo same)" "23 same" \
	"every line's count equals gcov's own report"
is "$(grep -c '#####: *22:' a.txt) $(grep -c '^> *11: *41:' a.txt)" "1 1" \
	"the error path is #####, the hottest line flagged"
is "$(grep -c '^# parse: 10 calls, ' a.txt)" 1 "each function's heading has the recording's calls and times"
"$CS" annotate --counts -i ep.data --json > a.json
is "$(jq -r '.files[0].lines[] | select(.line == 19 or .line == 22) | "\(.line):\(.count)"' a.json | paste -sd' ')" \
	"19:10 22:0" "--json lists each line's count"
"$CS" report -i ep.data --lines --counts > l.txt
is "$(sed -n 3p l.txt | sed 's/^ *//; s|/.*/||')" "11  ep.c:41 (main)" "report --lines --counts lists the most executed line first"
"$CS" report -i ep.data --lines --counts --json > l.json
is "$(jq -r '"\(.never_run) \(.lines | length)"' l.json)" "13 10" \
	"... and --json counts the lines that never ran"
"$CS" annotate --counts -i ep.data parse > p.txt
is "$(counts p.txt | cut -d: -f1 | paste -sd' ')" "19 21 22 23 24 25 27" "a function name narrows it to that function"

sleep 1
touch ep.c
"$CS" annotate --counts -i ep.data > /dev/null 2> err.txt
is "$(test $? -ne 0 && echo fails) $(wc -l < err.txt) $(grep -c 'stale' err.txt)" "fails 1 1" \
	"a source changed since the build: one line, an error"
gcc -O0 -g -pg -o plain ep.c
limited "$CS" record -o plain.data -- ./plain > /dev/null 2>&1
"$CS" annotate --counts -i plain.data > /dev/null 2> err.txt
is "$(test $? -ne 0 && echo fails) $(wc -l < err.txt) $(grep -c 'coverage' err.txt)" "fails 1 1" \
	"a program without --coverage: one line saying how to build it"
gcc -O0 -g -pg --coverage -o ep ep.c
rm -f ./*.gcda
cp ep.data ep3.data
"$CS" annotate --counts -i ep3.data > /dev/null 2> err.txt
is "$(test $? -ne 0 && echo fails) $(wc -l < err.txt) $(grep -c 'run' err.txt)" "fails 1 1" \
	"no counts written yet: one line saying to run it"
done_testing
