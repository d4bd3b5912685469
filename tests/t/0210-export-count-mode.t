#!/bin/sh
# export of a recording made with --mode=count (call paths summed in the
# program, no events): gprof reads the gmon.out with callscope's exact
# call counts, the folded call counts of each function add up to its
# calls, callgrind carries them, and the Chrome trace, whose events are
# single calls, is refused with one line instead of written empty.
. "$(dirname "$0")/lib.sh"

for tool in gprof callgrind_annotate; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "1..0 # skip $tool is not installed (scripts/deps/export.txt)"
		exit 0
	fi
done

# self_arcs DATA FUNCTION: calls FUNCTION made to itself
self_arcs() {
	"$CS" graph -i "$1" --json |
		jq -r --arg f "$2" '[.arcs[] | select(.caller == $f and .callee == $f) | .count] | add // 0'
}

plan 12
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record --mode=count -o c.data -- ./work 20 >/dev/null 2>&1
burn=$(calls_of c.data burn)
[ "$burn" = 20 ]
ok $? "the count-mode recording holds burn's 20 calls ($burn)"

"$CS" export -i c.data --format=gmon -o c.gmon
ok $? "gmon written"
gprof -b -p ./work c.gmon >flat.txt 2>/dev/null
for fn in burn leaf work fact; do
	want=$(( $(calls_of c.data $fn) - $(self_arcs c.data $fn) ))
	is "$(awk -v f=$fn '$NF == f && NF == 7 { print $4 }' flat.txt)" "$want" \
		"gprof's calls of $fn = callscope's (less self-calls)"
done

"$CS" export -i c.data --format=folded --value=calls -o c.folded
ok $? "folded written"
for fn in burn leaf; do
	is "$(awk -v f=$fn '{ n = split($1, p, ";"); if (p[n] == f) s += $2 } END { print s + 0 }' c.folded)" \
		"$(calls_of c.data $fn)" "folded call counts of the paths ending in $fn = its calls"
done

"$CS" export -i c.data --format=callgrind -o cg.out
grep -q '^calls=' cg.out
ok $? "callgrind holds the call arcs"
callgrind_annotate --threshold=100 cg.out >/dev/null 2>&1
ok $? "callgrind_annotate reads it"

"$CS" export -i c.data --format=chrome -o c.json >/dev/null 2>err.txt
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'mode=count' err.txt && [ ! -e c.json ]
ok $? "chrome refuses: exit $rc, one line, no file: $(cat err.txt)"
done_testing
