#!/bin/sh
# Every tag a text report prints after a name is explained in the legend
# under it, and the legend explains no tag the report did not print: the
# flat profile, the call-path tree and the replay, on runs that leave
# calls by longjmp, by an exception, running at a crash, and begun before
# a flight recorder's window.
. "$(dirname "$0")/lib.sh"

TAGS='\[(still running at the end|left by [a-z ]*|capture stopped|began before the recorded window|context|counters possibly incorrect|(self time|total|times) within the hooks. error|counted, not timed)\]'

# tags_printed FILE / tags_explained FILE: the tags on the report's lines,
# and those its legend lines ("# [tag]: ...") explain, one per line, sorted.
tags_printed() { grep -v '^#' "$1" | grep -oE "$TAGS" | sort -u; }
tags_explained() { grep -E '^# \[[^]]*\]: ' "$1" | sed 's/^# \(\[[^]]*\]\): .*/\1/' | sort -u; }

# check NAME WANT_TAG: the report in out.txt prints WANT_TAG and its legend
# explains exactly the tags printed.
check() {
	if tags_printed out.txt | grep -qF "$2" && [ "$(tags_printed out.txt)" = "$(tags_explained out.txt)" ]; then
		ok 0 "$1: $2 printed and the legend explains exactly the tags printed"
	else
		ok 1 "$1: $2 printed and the legend explains exactly the tags printed"
		echo "#   printed: $(tags_printed out.txt | tr '\n' ' ')"
		echo "#   explained: $(tags_explained out.txt | tr '\n' ' ')"
	fi
}

plan 11
build_prog longjmp lj -O2 -pg
limited "$CS" record -o lj.data -- ./lj > /dev/null 2>&1
"$CS" report lj.data > out.txt
check "report, longjmp" "[left by longjmp]"
"$CS" tree lj.data > out.txt
check "tree, longjmp" "[left by longjmp]"
"$CS" replay lj.data --last 5 > out.txt
check "replay --last 5, longjmp" "[context]"

build_prog crash cr -O2 -pg
limited "$CS" record -o cr.data -- ./cr segv > /dev/null 2>&1
"$CS" report cr.data > out.txt
check "report, crash" "[still running at the end]"
"$CS" tree cr.data > out.txt
check "tree, crash" "[still running at the end]"
"$CS" replay cr.data > out.txt
check "replay, crash" "[still running at the end]"

build_prog basic b -O2 -pg
limited "$CS" record --mode=flight=64K -o fl.data -- ./b 200000 > /dev/null 2>&1
"$CS" replay fl.data > out.txt
check "replay, flight ring" "[began before the recorded window]"

if command -v g++ > /dev/null 2>&1; then
	g++ -g -O2 -pg -o ex "$PROGS/exceptions.cc" -lpthread
	limited "$CS" record -o ex.data -- ./ex > /dev/null 2>&1
	"$CS" report ex.data > out.txt
	check "report, C++ exceptions" "[left by an exception]"
	"$CS" tree ex.data > out.txt
	check "tree, C++ exceptions" "[left by an exception]"
	"$CS" replay ex.data > out.txt
	check "replay, C++ exceptions" "[left by an exception]"
else
	skip "g++ is not installed"
	skip "g++ is not installed"
	skip "g++ is not installed"
fi

# A run where nothing was left: no legend but for the short functions'
# doubtful self times, which any run of them may have.
limited "$CS" record -o b.data -- ./b 10 > /dev/null 2>&1
"$CS" report b.data > out.txt
is "$(tags_explained out.txt | grep -v "hooks' error")" "" "report of a clean run: no legend"
done_testing
