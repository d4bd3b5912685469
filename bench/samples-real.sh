#!/usr/bin/env bash
# bench/samples-real.sh — the self shares of `record --mode=count
# --time-by=samples` on a real program's -pg build against perf's on its
# uninstrumented build (the same -O2 flags, the same input), perf's
# samples attributed as bench/self_shares.py says.  Programs from Debian
# source, built as bench/build_real.sh builds them: bzip2 -9 (its time in
# its own code), or ninja (C++; its dry run of a 30,000-edge build spends a
# fifth of its CPU time in the kernel, in fstatat).  Prints Markdown: the
# top ten of perf, and the largest difference (budget: 3 points).
#
#   PROGRAM    bzip2 (default) or ninja
#   BENCH_DIR  builds and data (default /tmp/callscope-bench-samples-real)
#   CALLSCOPE  the CLI (default <repo>/build/callscope)
#   SRC        the unpacked Debian sources, bzip2-* or ninja-build-*
#              (default /work/scratch/src)
#   RUNS       runs of each profiler, summed (default 3)
#   FREQ       samples per second of both (default 4999)
#   CS_OPTS    more 'callscope record' options (default --no-libcall)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
PROGRAM=${PROGRAM:-bzip2}
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-samples-real}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
SRC=${SRC:-/work/scratch/src}
RUNS=${RUNS:-3}
FREQ=${FREQ:-4999}
CS_OPTS=${CS_OPTS---no-libcall}
BUDGET=3	# points, each of perf's top ten
# shellcheck source=bench/build_real.sh
. "$HERE/build_real.sh"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
case $PROGRAM in
bzip2)
	binary=bzip2src/bzip2
	write_text text.txt 60000
	args=(-9 -c text.txt)
	shown="bzip2 -9 -c text.txt ($(wc -c < text.txt) bytes)"
	;;
ninja)
	binary=ninja/ninja
	write_ninja_project "$BENCH_DIR/ninja-project" 1000
	args=(-C "$BENCH_DIR/ninja-project" -n)
	shown="ninja -n of a build of 30,000 edges"
	;;
*)
	echo "samples-real: PROGRAM is bzip2 or ninja, not '$PROGRAM'" >&2
	exit 2
	;;
esac
for kind in plain pg; do
	CFLAGS_DISTRO="-O2 -g"
	[ $kind = pg ] && CFLAGS_DISTRO="-O2 -g -pg"
	mkdir -p "$kind"
	(cd "$kind" && "build_$PROGRAM")
done

for ((r = 0; r < RUNS; r++)); do
	perf record -q -e cpu-clock -F "$FREQ" -g -o "perf$r.data" -- "plain/$binary" "${args[@]}" \
		> /dev/null 2>&1
	perf script --no-inline -i "perf$r.data" -F ip,sym,dso 2> /dev/null
	# shellcheck disable=SC2086
	"$CALLSCOPE" record $CS_OPTS --mode=count --time-by=samples --freq="$FREQ" -o "cs$r.data" -- \
		"pg/$binary" "${args[@]}" > /dev/null 2>&1
done > perf.txt

git_rev=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo unknown)
echo "### $PROGRAM: \`--time-by=samples\` self shares against perf — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r); load average at the start $(cut -d' ' -f1-3 /proc/loadavg)."
echo "callscope $git_rev \`record $CS_OPTS --mode=count --time-by=samples --freq=$FREQ\` on the \`-O2 -g -pg\` build, perf \`-e cpu-clock -F $FREQ -g\` on the \`-O2 -g\` build, \`$shown\`, $RUNS runs of each, summed."
echo
python3 - "$CALLSCOPE" "$RUNS" "$HERE" "$BUDGET" <<'PY'
import sys
cs, runs, budget = sys.argv[1], int(sys.argv[2]), float(sys.argv[4])
sys.path.insert(0, sys.argv[3])
from self_shares import perf_shares, callscope_self

perf, total = perf_shares("perf.txt")
got, all_ns = callscope_self(cs, ["cs%d.data" % r for r in range(runs)])
worst = 0
print("| function | perf self % (plain) | callscope self % (--time-by=samples, -pg) | difference |")
print("| --- | ---: | ---: | ---: |")
for s in sorted(perf, key=perf.get, reverse=True)[:10]:
    p = 100.0 * perf[s] / total
    c = 100.0 * got.get(s, 0) / all_ns if all_ns else 0
    worst = max(worst, abs(p - c))
    # C++ template names run to hundreds of characters
    shown = s if len(s) <= 60 else s[:57] + "..."
    print("| %s | %.1f | %.1f | %+.1f |" % (shown, p, c, c - p))
print()
print("perf: %d samples; largest difference %.1f points (budget %.0f): %s"
      % (total, worst, budget, "PASS" if worst <= budget else "FAIL"))
PY
