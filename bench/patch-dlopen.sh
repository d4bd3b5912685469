#!/usr/bin/env bash
# bench/patch-dlopen.sh — what patching an object loaded later costs: the
# time of one dlopen of a generated library of N functions, named in
# --patch, while another thread keeps calling into a library patched at
# start.  Three ways, in interleaved rounds under `record`:
#
#   unplanned  the library is not in --patch: dlopen as the program pays it
#              under record (the program and libbusy_a patched, library
#              calls traced, as in the other two)
#   loader     planned: patched as the loader maps it (its pages made
#              writable, written, made executable again)
#   return     planned, the loader not followed (CALLSCOPE_NO_LOADER_HOOK):
#              patched as dlopen returns, through /proc/self/mem, int3
#              first, every processor serialized (membarrier) between steps
#
# The cost of patching is the difference from `unplanned`: CPU time of the
# loading thread (CLOCK_THREAD_CPUTIME_ID around dlopen) and wall time.
# Medians of REPEAT rounds.  Prints Markdown.
#
#   BENCH_DIR   builds and data (default /tmp/callscope-bench-patch-dlopen)
#   CALLSCOPE   the CLI (default <repo>/build/callscope)
#   REPEAT      rounds (default 7)
#   N           functions in the generated library (default 2000)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-patch-dlopen}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
REPEAT=${REPEAT:-7}
N=${N:-2000}
say() { printf 'bench: %s\n' "$*" >&2; }

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
awk -v n="$N" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "__attribute__((noinline)) long gen_%d(long x) { return x * %d + (x >> 3) - %d; }\n", i, i + 3, i
}' > gen.c
cc -O2 -g -shared -fPIC -o libgen.so gen.c
cc -O2 -g -shared -fPIC -DBUSY_LOADED -o libbusy_a.so "$ROOT/tests/progs/patch_busy_lib.c"
cc -O2 -g -o timer "$HERE/progs/dlopen_timer.c" -L. -lbusy_a -lpthread -ldl
export LD_LIBRARY_PATH=$BENCH_DIR

WAYS=(unplanned loader return)
declare -A LABEL=(
	[unplanned]="not planned (no patching)"
	[loader]="patched as the loader maps it (mprotect RW, write, RX)"
	[return]="patched as dlopen returns (/proc/self/mem, int3, membarrier)"
)
# one_run WAY: prints "CPU_US WALL_US" of the dlopen
one_run() {
	local spec=timer,libbusy_a,libgen env=()
	case $1 in
	unplanned) spec=timer,libbusy_a ;;
	return) env=(CALLSCOPE_NO_LOADER_HOOK=1) ;;
	esac
	env "${env[@]}" "$CALLSCOPE" record --patch=$spec -o "$1.data" -- \
		./timer "$BENCH_DIR/libgen.so" > "$1.out" 2> "$1.err" ||
		{ say "$1 failed: see $BENCH_DIR/$1.err"; return 1; }
	awk '{ print $2, $4 }' "$1.out"
}

declare -A CPU WALL
# shellcheck source=bench/median.sh
. "$HERE/median.sh"
rounds_cpu_wall one_run "${WAYS[@]}"
for w in loader return; do
	got=$("$CALLSCOPE" report -i "$w.data" --json | jq '[.functions[] | select(.name == "gen_0") | .calls] | add // 0')
	[ "$got" = 1 ] || { say "$w: gen_0 counted $got times, not once: not patched?"; exit 1; }
done
per_fn() { awk -v a="$1" -v b="$2" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n }'; }
patched=$(grep -o 'patching the entries of [0-9]* of [0-9]* functions in [0-9]* objects' loader.err || echo "?")
git_rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
	echo "## Patching an object loaded later — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "callscope $git_rev; a generated library of $N functions dlopen'ed while another thread calls into a patched library ($patched, with the one loaded later); medians of $REPEAT interleaved rounds."
	echo
	echo "| dlopen of the library | loading thread CPU (µs) | wall (µs) | CPU per function over not planned (µs) | wall per function (µs) |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	cu=$(median "${CPU[unplanned]}") wu=$(median "${WALL[unplanned]}")
	for w in "${WAYS[@]}"; do
		c=$(median "${CPU[$w]}") t=$(median "${WALL[$w]}")
		if [ "$w" = unplanned ]; then
			echo "| ${LABEL[$w]} | $c | $t | — | — |"
		else
			echo "| ${LABEL[$w]} | $c | $t | $(per_fn "$c" "$cu") | $(per_fn "$t" "$wu") |"
		fi
	done
} | tee "$BENCH_DIR/patch-dlopen.md"
