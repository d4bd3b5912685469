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
for tool in gcc uftrace jq awk; do
	command -v "$tool" >/dev/null || die "'$tool' not found; run bench/setup.sh first"
done
[ -x "$CALLSCOPE" ] || die "no '$CALLSCOPE'; run make first"

# best CMD...: the best wall time of REPEAT runs, in seconds.
best() {
	local b="" t0 t1 t
	for ((i = 0; i < REPEAT; i++)); do
		t0=$EPOCHREALTIME
		(cd "$W" && "$@") >/dev/null 2>&1 || die "failed: $*"
		t1=$EPOCHREALTIME
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
		if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
	done
	echo "$b"
}

ns_per_call() { awk -v t="$1" -v p="$2" -v n="$3" 'BEGIN { printf "%.1f", (t - p) * 1e9 / n }'; }

gcc -O2 -g -fno-builtin -o "$W/cost-plain" "$HERE/progs/libcall_cost.c"
gcc -O2 -g -fno-builtin -pg -o "$W/cost-pg" "$HERE/progs/libcall_cost.c"

declare -A T
for mode in own lib; do
	T[plain,$mode]=$(best ./cost-plain $mode "$N")
	T[callscope,$mode]=$(best "$CALLSCOPE" record -o cs.data -- ./cost-pg $mode "$N")
	T[uftrace,$mode]=$(best uftrace record -d uft.data ./cost-pg $mode "$N")
done
T[off,lib]=$(best "$CALLSCOPE" record --no-libcall -o cs.data -- ./cost-pg lib "$N")
lib_calls=$(cd "$W" && "$CALLSCOPE" record -o cs.data -- ./cost-pg lib "$N" >/dev/null 2>&1 &&
	"$CALLSCOPE" report -i cs.data --json | jq '[.functions[] | select(.name=="strlen") | .calls] | add')
[ "$lib_calls" = "$N" ] || die "callscope counted $lib_calls strlen calls, not $N"

cs_own=$(ns_per_call "${T[callscope,own]}" "${T[plain,own]}" "$N")
cs_lib=$(ns_per_call "${T[callscope,lib]}" "${T[plain,lib]}" "$N")
uf_own=$(ns_per_call "${T[uftrace,own]}" "${T[plain,own]}" "$N")
uf_lib=$(ns_per_call "${T[uftrace,lib]}" "${T[plain,lib]}" "$N")
off_lib=$(ns_per_call "${T[off,lib]}" "${T[plain,lib]}" "$N")
verdict=$(awk -v l="$cs_lib" -v o="$cs_own" 'BEGIN { print (l <= o * 1.1) ? "PASS" : "FAIL" }')

echo "### Cost of a traced library call"
echo
echo "\`bench/progs/libcall_cost.c\`: $N calls of the program's own \`own_len\` (-pg), or of"
echo "libc's \`strlen\` through the PLT, the same work; built \`-O2 -g -fno-builtin\`."
echo "ns/call = (traced time − plain time) / $N, best of $REPEAT runs."
echo
echo "| call | plain | callscope record | ns/call | uftrace record | ns/call |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "| own code (-pg hook) | ${T[plain,own]} s | ${T[callscope,own]} s | $cs_own | ${T[uftrace,own]} s | $uf_own |"
echo "| library (PLT) | ${T[plain,lib]} s | ${T[callscope,lib]} s | $cs_lib | ${T[uftrace,lib]} s | $uf_lib |"
echo
echo "With \`--no-libcall\` a library call costs $off_lib ns. Budget: a library call costs no more"
echo "than an own call (within 10 % timing noise): **$verdict** ($cs_lib vs $cs_own ns)."
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
