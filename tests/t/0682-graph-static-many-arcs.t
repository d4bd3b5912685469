#!/bin/sh
# graph --static on a program with many more calls that never ran than
# ran (as a real program's error paths and options are): every direct
# call objdump sees between two of its functions is an arc, with no
# other.  Adding them grows the profile's array of arcs many times over;
# an arc written through a pointer into the array before it grew went to
# freed memory (zstd -O3 crashed so).
. "$(dirname "$0")/lib.sh"

plan 3
# gen.c: f0 ... f299, each calling two others only for a value main never passes
N=300
{
	i=0
	while [ $i -lt $N ]; do echo "int f$i(int);"; i=$((i + 1)); done
	i=0
	while [ $i -lt $N ]; do
		a=$(((i * 7 + 1) % N)); b=$(((i * 13 + 5) % N))
		echo "__attribute__((noinline)) int f$i(int x) { if (x == 424242) return f$a(x - 1) + f$b(x - 2); return x + $i; }"
		i=$((i + 1))
	done
	echo "int main(int argc, char **argv) { (void)argv; return f0(argc) == 1 ? 0 : 1; }"
} > gen.c
cc -O2 -pg -o gen gen.c || exit 1
limited "$CS" record -o gen.data -- ./gen > /dev/null 2>&1
limited "$CS" graph -i gen.data --static --json > st.json
ok $? "graph --static reads it"
objdump -d --no-show-raw-insn gen | awk '
	/^[0-9a-f]+ <[^>]+>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
	/\t(call|jmp) +[0-9a-f]+ <f[0-9]+>$/ { t = $NF; gsub(/[<>]/, "", t); if (f != t) print f ">" t }
' | sort -u > objdump.txt
jq -r '.arcs[] | select(.callee | test("^f[0-9]+$")) | "\(.caller)>\(.callee)"' st.json | sort -u > arcs.txt
is "$(comm -3 objdump.txt arcs.txt | wc -l)" 0 \
	"the arcs are objdump's direct calls and jumps between the functions ($(wc -l < arcs.txt))"
ok "$([ "$(wc -l < arcs.txt)" -ge $N ] && echo 0 || echo 1)" "there are hundreds of them"
