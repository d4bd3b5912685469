#!/bin/sh
# export --format=gmon: GNU gprof reads the file and shows callscope's
# exact call counts (self-recursion as calls+selfcalls, a cycle, calls
# from several threads summed) and its self times to the histogram's
# 1 us resolution; a shared library's functions draw one warning.
# Library calls are left out: gprof's arcs are the program's own.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof >/dev/null 2>&1; then
	echo "1..0 # skip gprof (binutils) is not installed"
	exit 0
fi

# self_ns DATA FUNCTION
self_ns() {
	"$CS" report -i "$1" --json |
		jq -r --arg f "$2" '[.functions[] | select(.name == $f) | .self_ns] | add // 0'
}

# self_arcs DATA FUNCTION: calls FUNCTION made to itself
self_arcs() {
	"$CS" graph -i "$1" --json |
		jq -r --arg f "$2" '[.arcs[] | select(.caller == $f and .callee == $f) | .count] | add // 0'
}

# gprof_flat_calls FLAT FUNCTION: the calls column of gprof's flat profile
gprof_flat_calls() {
	awk -v f="$2" '$NF == f && NF == 7 { print $4; found = 1 } END { if (!found) print 0 }' "$1"
}

plan 22
for opt in -O0 -O2; do
	build_prog export_work work $opt -pg -fno-inline -fno-optimize-sibling-calls
	limited "$CS" record --no-libcall -o w.data -- ./work >/dev/null 2>&1
	"$CS" export -i w.data --format=gmon -o gmon.out 2>err.txt
	ok $? "$opt: export writes gmon.out"
	gprof -b -p ./work gmon.out >flat.txt 2>gprof-err.txt
	ok $? "$opt: gprof reads it"
	for fn in burn leaf work ping pong fact; do
		want=$(( $(calls_of w.data $fn) - $(self_arcs w.data $fn) ))
		is "$(gprof_flat_calls flat.txt $fn)" "$want" "$opt: gprof's calls of $fn = callscope's (less self-calls)"
	done
done

# Each arc starts where the caller calls: the return address of a direct
# call to the callee, as a -pg call site records it.  objdump lists the
# calls; the address after each is the next instruction's.
objdump -d --no-show-raw-insn ./work |
	awk '/^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); if (t != "") print a, t; t = "" }
	     /^ *[0-9a-f]+:\tcall +[0-9a-f]+ </ { t = $3 }' > sites.txt
perl "$ROOT/tests/t/gmon_arcs.pl" gmon.out > arcs.txt
checked=0 wrong=0
while read -r from self count; do
	grep -q "^$from $self\$" sites.txt && checked=$((checked + 1)) || wrong=$((wrong + 1))
done < arcs.txt
[ "$checked" -ge 6 ] && [ "$wrong" -eq 0 ]
ok $? "the arcs start at the callers' call sites ($checked found in the code, $wrong not)"

# fact(12): gprof shows 1+11 in its call graph.
gprof -b -q ./work gmon.out >graph.txt
grep -q '^\[[0-9]*\].* 1+11 *fact \[' graph.txt
ok $? "self-recursion shown as calls+selfcalls, the counts exact"

# burn's self time: gprof prints seconds with two decimals.
want=$(self_ns w.data burn)
got=$(awk '$NF == "burn" { print $3 }' flat.txt)
awk -v got="$got" -v ns="$want" 'BEGIN { d = got - ns / 1e9; exit !(d < 0.0051 && d > -0.0051) }'
ok $? "burn's self time in gprof ($got s) is callscope's ($want ns) to the printed digit"

# Four threads and main call work(): 20001 calls in one gmon.out.
build_prog threads thr -O2 -pg
limited "$CS" record --no-libcall -o t.data -- ./thr >/dev/null 2>&1
"$CS" export -i t.data --format=gmon -o t.gmon 2>/dev/null
gprof -b -p ./thr t.gmon >tflat.txt 2>/dev/null
is "$(gprof_flat_calls tflat.txt work)" "$(calls_of t.data work)" "calls from all threads summed"

# A shared library: written, with one warning naming what gprof cannot name.
cc -g -O2 -pg -fPIC -shared -DEXPORT_LIB -o libexport.so "$PROGS/export_lib.c"
cc -g -O2 -pg -o app "$PROGS/export_lib.c" -L. -lexport -Wl,-rpath,"$WORK"
limited "$CS" record --no-libcall -o l.data -- ./app >/dev/null 2>&1
"$CS" export -i l.data --format=gmon -o l.gmon 2>warn.txt
cat warn.txt | sed "s/^/# /"
is "$(grep -c 'gprof cannot name' warn.txt)" 1 "one warning for the library's functions"
gprof -b -p ./app l.gmon >lflat.txt 2>/dev/null
is "$(gprof_flat_calls lflat.txt app_step)" 5 "the program's own functions still counted"
done_testing
