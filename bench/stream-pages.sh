#!/usr/bin/env bash
# bench/stream-pages.sh — what the pages of a trace's event stream cost
# the kernel, way by way (bench/progs/stream_pages.c), on the disk that
# holds the recording and on tmpfs, in CPU time per 4 KiB page.  The
# stream is what a trace of the Lua benchmark writes (88 MiB in 8 MiB
# windows); rounds are interleaved, medians kept.  Prints Markdown.
#
#   BENCH_DIR  the folder on the disk under test, where the streams and
#              the copies go (default /tmp/callscope-bench-pages)
#   SHM        a tmpfs folder (default /dev/shm; skipped when missing)
#   REPEAT     rounds (default 7)
#   MIB        stream size in MiB (default 88)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-pages}
SHM=${SHM:-/dev/shm}
REPEAT=${REPEAT:-7}
MIB=${MIB:-88}
# shellcheck source=bench/median.sh
. "$HERE/median.sh"

mkdir -p "$BENCH_DIR"
cc -O2 -o "$BENCH_DIR/stream_pages" "$HERE/progs/stream_pages.c"
cd "$BENCH_DIR"

VARIANTS=("populate $BENCH_DIR" "zeros $BENCH_DIR" "faults $BENCH_DIR")
if [ -d "$SHM" ] && [ -w "$SHM" ]; then
	VARIANTS+=("populate $SHM" "populate+copy $SHM" "zeros+copy $SHM")
fi
declare -A ALL COPY
for ((r = 0; r < REPEAT; r++)); do
	for v in "${VARIANTS[@]}"; do
		# shellcheck disable=SC2086 # "WAY DIR", split on purpose
		read -r a c <<<"$("$BENCH_DIR/stream_pages" $v "$MIB")"
		ALL[$v]="${ALL[$v]:-} $a"
		COPY[$v]="${COPY[$v]:-} $c"
	done
done

pages=$((MIB * 256))
echo "Stream of $MIB MiB in 8 MiB windows; medians of $REPEAT interleaved rounds; CPU time (user + system) of the writer; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
echo "File systems: $BENCH_DIR on $(df --output=fstype "$BENCH_DIR" | tail -n 1), $SHM on $(df --output=fstype "$SHM" 2> /dev/null | tail -n 1)."
echo
echo "| way | folder | CPU (ms), median | of which the copy to disk | µs per 4 KiB page |"
echo "| --- | --- | ---: | ---: | ---: |"
for v in "${VARIANTS[@]}"; do
	a=$(median "${ALL[$v]}")
	c=$(median "${COPY[$v]}")
	awk -v way="${v%% *}" -v dir="${v#* }" -v a="$a" -v c="$c" -v p="$pages" \
		'BEGIN { printf "| %s | %s | %.1f | %.1f | %.2f |\n", way, dir, a, c, a * 1000 / p }'
done
