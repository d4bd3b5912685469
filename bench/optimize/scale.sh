#!/usr/bin/env bash
# bench/optimize/scale.sh — how the ordering algorithms' time and memory
# grow with the hot functions, on generated call graphs (scale.c says
# which), so a large program's cost can be read off before it is run.
#
#   make && bench/optimize/scale.sh            (about a minute on 2 cores)
#
# Each algorithm runs in a process of its own, REPEAT times; the table
# gives the median CPU time of the algorithm alone, the process's peak
# memory before and after it (the generated graph, then the algorithm's
# own on top), and the layout's hash: two builds that give the same hash
# gave the very same order.  Markdown on stdout.
#
# Knobs (environment):
#   BUILD       the build whose objects are linked in (default <repo>/build;
#               an older build directory measures the code before a change)
#   SIZES       hot functions (default "8000 30000 100000")
#   ALGORITHMS  (default "cache-sort dense-chains")
#   SHAPES      "uniform" and/or "hubs" (default both)
#   REPEAT      runs of each, the median kept (default 3)
#   BENCH_DIR   where the program is built (default /tmp/callscope-bench)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SIZES=${SIZES:-8000 30000 100000}
ALGORITHMS=${ALGORITHMS:-cache-sort dense-chains}
SHAPES=${SHAPES:-uniform hubs}
REPEAT=${REPEAT:-3}
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}

die() { printf 'scale-bench: %s\n' "$*" >&2; exit 1; }

objects=$(find "$BUILD/tool" -name '*.o' ! -path '*/cli/main.o' | sort)
[ -n "$objects" ] || die "no objects under '$BUILD/tool'; run 'make' at the repository root"
mkdir -p "$BENCH_DIR"
prog=$BENCH_DIR/optimize-scale
# shellcheck disable=SC2086
gcc -std=gnu11 -D_GNU_SOURCE -O2 -I "$ROOT/include" -I "$ROOT/common" -I "$ROOT/lib" -I "$ROOT" \
	-o "$prog" "$HERE/scale.c" $objects -liberty || die "building '$prog' failed"

echo "| algorithm | graph | hot functions | arcs | clusters | CPU s (median of $REPEAT) | peak memory, graph / with the algorithm | layout hash |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
for shape in $SHAPES; do
	for n in $SIZES; do
		for alg in $ALGORITHMS; do
			for _ in $(seq "$REPEAT"); do "$prog" "$n" "$alg" "$shape"; done |
				sort -k6,6n | awk -v r="$REPEAT" 'NR == int((r + 1) / 2) {
					printf "| %s | %s | %d | %d | %d | %.2f | %.0f / %.0f MiB | %s |\n",
						$1, $2, $3, $4, $5, $6, $7 / 1024, $8 / 1024, $9 }'
		done
	done
done
