#!/bin/sh
# export --format=callgrind: callgrind_annotate reads the file and shows
# callscope's self time per function exactly, and with --inclusive=yes
# its total time (for a program without cycles, where callgrind's
# inclusive arithmetic is exact).
. "$(dirname "$0")/lib.sh"

if ! command -v callgrind_annotate >/dev/null 2>&1; then
	echo "1..0 # skip callgrind_annotate (valgrind) is not installed"
	exit 0
fi

# field DATA FUNCTION KEY: a number of FUNCTION from report --json
field() {
	"$CS" report -i "$1" --json |
		jq -r --arg f "$2" --arg k "$3" '[.functions[] | select(.name == $f) | .[$k]] | add // 0'
}

# annotated FILE FUNCTION: the cost callgrind_annotate shows for FUNCTION
annotated() {
	awk -v f="$2" '{ for (i = 2; i <= NF; i++) if ($i ~ ":" f "$") {
		v = $1; gsub(",", "", v); print v; exit } }' "$1"
}

plan 14
build_prog basic bin -O2 -pg
limited "$CS" record -o b.data -- ./bin 15 >/dev/null 2>&1
"$CS" export -i b.data --format=callgrind -o cg.out
ok $? "export writes callgrind.out"
callgrind_annotate --threshold=100 cg.out >self.txt 2>err.txt
ok $? "callgrind_annotate reads it"
is "$(grep -c 'malformed\|WARNING' err.txt)" 0 "without a warning"
for fn in main loop leaf fib helper_static; do
	is "$(annotated self.txt $fn)" "$(field b.data $fn self_ns)" "self time of $fn"
done
callgrind_annotate --threshold=100 --inclusive=yes cg.out >incl.txt 2>/dev/null
for fn in main loop leaf; do
	is "$(annotated incl.txt $fn)" "$(field b.data $fn total_ns)" "inclusive time of $fn"
done
grep -q '^calls=1000 ' cg.out
ok $? "the call arc loop -> leaf carries its exact count"
# libc's strlen, without hooks, timed by samples under the functions that
# reached it, whose calls were not counted
cc -g -O2 -pg -o libc_time "$PROGS/sampled_libc.c"
limited "$CS" record --no-libcall --mode=count --time-by=samples -o s.data -- ./libc_time \
	>/dev/null 2>&1
"$CS" export -i s.data --format=callgrind -o scg.out
callgrind_annotate --threshold=100 scg.out >sself.txt 2>/dev/null
for fn in plain_len tail_len; do
	is "$(annotated sself.txt $fn)" "$(field s.data $fn self_ns)" \
		"uncounted callees: self time of $fn, without its callee's"
done
done_testing
