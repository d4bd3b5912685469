#!/bin/sh
# -finstrument-functions at -O2 and -O3: the compiler keeps the hooks of
# the functions it inlines and calls them from the caller's frame, at the
# caller's stack pointer.  Such calls nest in their caller, are counted
# and untagged (nothing jumped or threw), and main stays the root; in a
# C++ program the only calls tagged are those its exceptions left, as
# exceptions, and the counts are the -pg build's.
. "$(dirname "$0")/lib.sh"

# tagged R.JSON: "name:longjmp:exception" of every tagged function (its
# calls left each way), sorted
tagged() {
	jq -r '.functions[] | select(.unwound > 0) | "\(.name):\(.unwound - .thrown):\(.thrown)"' "$1" |
		sort | paste -sd' '
}
# callers G.JSON NAME: "caller count" of each arc into NAME
callers() { jq -r --arg f "$2" '[.arcs[] | select(.callee == $f) | "\(.caller) \(.count)"] | sort | join(",")' "$1"; }

compilers=gcc
command -v clang > /dev/null 2>&1 && compilers="gcc clang"
plan 22
for cc in gcc clang; do
	for opt in -O2 -O3; do
		name="$cc $opt"
		case " $compilers " in
		*" $cc "*) ;;
		*)	skip "$name: $cc is not installed"; skip "$name"; skip "$name"; skip "$name"; skip "$name"
			continue ;;
		esac
		$cc -g $opt -finstrument-functions -o inl "$PROGS/inlined.c"
		is "$(objdump -d --no-show-raw-insn inl | grep -c 'call.*<leaf>')" 0 \
			"$name: leaf is inlined wherever it is called"
		out=$(limited "$CS" record -o i.data -- ./inl 2> /dev/null)
		is "$out" "3003000 610" "$name: the program runs as it does alone"
		"$CS" report -i i.data --json > r.json
		"$CS" graph -i i.data --json > g.json
		got=""
		for f in top mid leaf fib; do
			got="$got $(jq -r --arg f "$f" '[.functions[] | select(.name == $f) | .calls] | add // 0' r.json)"
		done
		is "$got|$(tagged r.json)" " 1000 1000 2000 1973|" \
			"$name: inlined calls counted, none tagged as left by longjmp"
		is "$(callers g.json main)|$(callers g.json top)|$(callers g.json mid)|$(callers g.json leaf)" \
			"<spontaneous> 1|main 1000|top 1000|mid 2000" \
			"$name: each inlined call's caller is the function it was inlined into, main the root"
		limited "$CS" record --mode=count --time-by=samples -o k.data -- ./inl > /dev/null 2>&1
		"$CS" graph -i k.data --json > k.json
		is "$(callers k.json main)|$(callers k.json mid)|$(callers k.json leaf)|$(callers k.json fib)" \
			"<spontaneous> 1|top 1000|mid 2000|fib 1972,main 1" \
			"$name: the same paths in count mode timed by samples"
	done
done

if ! command -v g++ > /dev/null 2>&1; then
	for i in 1 2; do skip "g++ is not installed"; done
	done_testing
fi
SQUARE='geometry::Square::area() const'
# counts R.JSON: "name calls" of the program's own functions, sorted
counts() { jq -r '.functions[] | select(.object == "cxx") | "\(.name)\t\(.calls)"' "$1" | sort; }
g++ -g -O2 -pg -o cxx "$PROGS/cxx_names.cc" -lpthread
limited "$CS" record -o p.data -- ./cxx > /dev/null 2>&1
"$CS" report -i p.data --json > p.json
g++ -g -O2 -finstrument-functions -o cxx "$PROGS/cxx_names.cc" -lpthread
expected=$(./cxx)
out=$(limited "$CS" record -o c.data -- ./cxx 2> /dev/null)
"$CS" report -i c.data --json > c.json
"$CS" graph -i c.data --json > g.json
is "$out|$(tagged c.json)|$(callers g.json main)|$(callers g.json "$SQUARE")" \
	"$expected|_Unwind_Resume:0:2 __cxa_throw:0:2|<spontaneous> 1|main 40" \
	"C++ -O2: only the calls the exceptions left are tagged, as exceptions; main is the root"
# a function the -pg build inlined somewhere has no mcount there, while its
# hooks here still run: never fewer calls, and the same where -pg saw all
counts p.json > p.tsv
counts c.json > c.tsv
is "$(join -t "$(printf '\t')" p.tsv c.tsv | awk -F'\t' '$3 < $2' | wc -l) $(join -t "$(printf '\t')" p.tsv c.tsv | grep -c .)|$(join -t "$(printf '\t')" p.tsv c.tsv | grep -E "^($SQUARE|geometry::Circle::area\(\) const|checked\(int\)|label\[abi:cxx11\]\(int\)|worker::spin\(int\)|raw_thread\(void\*\))	" | awk -F'\t' '$2 != $3' | wc -l)" \
	"0 $(grep -c . p.tsv)|0" \
	"C++ -O2: no function counted less than under -pg, the program's named functions exactly as often"
done_testing
