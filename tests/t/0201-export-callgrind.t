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

plan 12
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
done_testing
