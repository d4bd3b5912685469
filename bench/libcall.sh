#!/usr/bin/env bash
# bench/libcall.sh — library calls (PLT/GOT) traced by default: what one
# costs against a call of the program's own code under -pg, beside
# uftrace's libcall tracing of the same binaries, and whether the counts
# equal uftrace's on a real program (bzip2 from Debian source, compressing
# a generated file).  Prints Markdown tables.
#
#   bench/setup.sh && make && bench/libcall.sh
#
# Knobs (environment):
#   BENCH_DIR  scratch folder (default /tmp/callscope-bench); bzip2's source
#              is looked for in BENCH_DIR/src/bzip2-* (bench/setup.sh puts it there)
#   CALLSCOPE  the CLI to test (default <repo>/build/callscope)
#   REPEAT     runs per measurement, the best is kept (default 5)
#   N          calls per cost run (default 3000000)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
REPEAT=${REPEAT:-5}
N=${N:-3000000}
W=$BENCH_DIR/libcall
mkdir -p "$W"

die() { printf 'bench: %s\n' "$*" >&2; exit 1; }
for tool in gcc uftrace jq awk perf; do
	command -v "$tool" >/dev/null || die "'$tool' not found; run bench/setup.sh first"
done
[ -x "$CALLSCOPE" ] || die "no '$CALLSCOPE'; run make first"

# best CMD...: the least CPU time (perf stat's task-clock, the command and
# its children) of REPEAT runs, in seconds.  CPU time, not the wall clock:
# on a shared machine the wall clock moves by tens of percent.
best() {
	local b="" t
	for ((i = 0; i < REPEAT; i++)); do
		(cd "$W" && perf stat -e task-clock -x, -o perf.txt -- "$@") >/dev/null 2>&1 ||
			die "failed: $*"
		t=$(awk -F, '/task-clock/ { printf "%.6f", $1 / 1000 }' "$W/perf.txt")
		if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
	done
	echo "$b"
}

gcc -O2 -g -fno-builtin -o "$W/cost-plain" "$HERE/progs/libcall_cost.c"
gcc -O2 -g -fno-builtin -pg -o "$W/cost-pg" "$HERE/progs/libcall_cost.c"

declare -A T
# each tool's start-up and shut-down cost is measured with 0 calls and
# taken out: ns/call = ((traced N - traced 0) - (plain N - plain 0)) / N
for mode in own lib; do
	for n in 0 "$N"; do
		T[plain,$mode,$n]=$(best ./cost-plain $mode "$n")
		T[callscope,$mode,$n]=$(best "$CALLSCOPE" record -o cs.data -- ./cost-pg $mode "$n")
		T[nosample,$mode,$n]=$(best "$CALLSCOPE" record --outside-freq=0 -o cs.data -- ./cost-pg $mode "$n")
		T[uftrace,$mode,$n]=$(best uftrace record -d uft.data ./cost-pg $mode "$n")
	done
done
for n in 0 "$N"; do
	T[off,lib,$n]=$(best "$CALLSCOPE" record --no-libcall -o cs.data -- ./cost-pg lib "$n")
done
lib_calls=$(cd "$W" && "$CALLSCOPE" record -o cs.data -- ./cost-pg lib "$N" >/dev/null 2>&1 &&
	"$CALLSCOPE" report -i cs.data --json | jq '[.functions[] | select(.name=="strlen") | .calls] | add')
[ "$lib_calls" = "$N" ] || die "callscope counted $lib_calls strlen calls, not $N"

# per_call TOOL MODE: its ns per call
per_call() {
	awk -v t="${T[$1,$2,$N]}" -v t0="${T[$1,$2,0]}" -v p="${T[plain,$2,$N]}" \
		-v p0="${T[plain,$2,0]}" -v n="$N" 'BEGIN { printf "%.1f", ((t - t0) - (p - p0)) * 1e9 / n }'
}
cs_own=$(per_call callscope own)
cs_lib=$(per_call callscope lib)
ns_own=$(per_call nosample own)
ns_lib=$(per_call nosample lib)
uf_own=$(per_call uftrace own)
uf_lib=$(per_call uftrace lib)
off_lib=$(per_call off lib)
verdict=$(awk -v l="$cs_lib" -v o="$cs_own" 'BEGIN { print (l <= o * 1.1) ? "PASS" : "FAIL" }')

echo "### Cost of a traced library call"
echo
echo "\`bench/progs/libcall_cost.c\`: $N calls of the program's own \`own_len\` (-pg), or of"
echo "libc's \`strlen\` through the PLT, the same work; built \`-O2 -g -fno-builtin\`."
echo "ns/call = ((traced CPU time with N calls − with 0) − (plain CPU time with N − with 0)) / N,"
echo "each the least task-clock (perf stat, with children) of $REPEAT runs."
echo
echo "| call | callscope record | --outside-freq=0 | uftrace record |"
echo "| --- | --- | --- | --- |"
echo "| own code (-pg hook) | $cs_own ns | $ns_own ns | $uf_own ns |"
echo "| library (PLT) | $cs_lib ns | $ns_lib ns | $uf_lib ns |"
echo
echo "\`callscope record\` samples beside the trace at 199 Hz by default (the time outside the"
echo "hooks); \`--outside-freq=0\` does not. With \`--no-libcall\` a library call costs $off_lib ns."
echo "Budget: a library call costs no more than an own call (within 10 % timing noise):"
echo "**$verdict** ($cs_lib vs $cs_own ns)."
echo

# The samples beside a trace, in CPU time.
big=$((N * 3))
echo "### Cost of the samples beside the trace (--outside-freq)"
echo
echo "CPU time (best of $REPEAT) of \`callscope record -- cost-pg own $big\`:"
echo
echo "| --outside-freq | CPU s | cost |"
echo "| --- | --- | --- |"
base=$(best "$CALLSCOPE" record --outside-freq=0 -o cs.data -- ./cost-pg own "$big")
echo "| 0 (off) | $base | |"
for hz in 199 999; do
	t=$(best "$CALLSCOPE" record --outside-freq=$hz -o cs.data -- ./cost-pg own "$big")
	echo "| $hz$([ $hz = 199 ] && echo ' (default)') | $t | $(awk -v t="$t" -v b="$base" 'BEGIN { printf "%+.1f %%", (t - b) * 100 / b }') |"
done
echo

# Counts on bzip2 from Debian source.
src=""
for d in "$BENCH_DIR"/src/bzip2-*/; do
	[ -f "$d/bzip2.c" ] && src=${d%/} && break
done
if [ -z "$src" ]; then
	echo "(no bzip2 source under $BENCH_DIR/src: run bench/setup.sh for the count table)"
	exit 0
fi
rm -rf "$W/bzip2" && cp -r "$src" "$W/bzip2"
make -s -C "$W/bzip2" CFLAGS="-pg -O2 -g -D_FILE_OFFSET_BITS=64" bzip2 >/dev/null 2>&1 ||
	die "cannot build bzip2 in $W/bzip2"
seq 1 200000 >"$W/in.txt"
# the same run for both: no output file there before (bzip2 -f removes one)
rm -f "$W/in.txt.bz2"
(cd "$W" && "$CALLSCOPE" record -o bz.data -- ./bzip2/bzip2 -kf in.txt) >/dev/null 2>&1
"$CALLSCOPE" report -i "$W/bz.data" --json |
	jq -r '.functions[] | select(.object | test("bzip2$") | not) | "\(.name) \(.calls)"' |
	sort >"$W/cs.counts"
rm -rf "$W/uft.data" "$W/in.txt.bz2"
(cd "$W" && uftrace record -d uft.data ./bzip2/bzip2 -kf in.txt) >/dev/null 2>&1
uftrace report -d "$W/uft.data" -f call 2>/dev/null |
	awk 'NR > 2 && $2 !~ /^linux:/ { print $2, $1 }' | sort >"$W/uf.all"
# uftrace's counts of the functions callscope found in other objects, and
# the library functions uftrace saw that callscope did not
join -a1 -e missing -o 1.1,1.2,2.2 "$W/cs.counts" "$W/uf.all" >"$W/joined"
same=$(awk '$2 == $3' "$W/joined" | wc -l)
total=$(wc -l <"$W/joined")
echo "### Library-call counts on bzip2 (Debian source, -pg -O2)"
echo
echo "\`bzip2 -kf in.txt\` (\`seq 1 200000\`, $(wc -c <"$W/in.txt") bytes): each library function"
echo "callscope traced, its count beside uftrace's (\`uftrace record\`, libcall tracing on)."
echo
echo "| function | callscope | uftrace |"
echo "| --- | --- | --- |"
awk '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$W/joined"
echo
echo "Equal: $same of $total functions."
