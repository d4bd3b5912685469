#!/usr/bin/env bash
# bench/attach.sh — `record --pid` beside `perf record --call-graph dwarf
# -p`, both attached at once to the same running process: zstd 1.5.4 from
# Debian's source, built -O2 as distributions build it (no frame
# pointers), compressing with two worker threads at -19.  The same
# process over the same seconds, so the two see the same work: each
# function of perf's top ten with its self share (samples in it) and its
# total share (samples with it anywhere on the stack) from each.  Prints
# Markdown and the largest differences.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-attach), SRC (the
# unpacked Debian sources, libzstd-*), CALLSCOPE, SECONDS_ATTACHED
# (default 3).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-attach}
SRC=${SRC:-$BENCH_DIR/src}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
SECONDS_ATTACHED=${SECONDS_ATTACHED:-3}
CFLAGS_DISTRO="-O2 -g"
. "$HERE/build_real.sh"

for tool in perf make cc; do
	command -v "$tool" > /dev/null || { echo "attach: '$tool' not found" >&2; exit 1; }
done
mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
build_zstd zstd-mt
# hex of random bytes: 40 MB that -19 takes a while over
[ -f input.txt ] || head -c 13000000 /dev/urandom | od -An -tx1 > input.txt

zstd-mt/programs/zstd -T2 -19 -f -q input.txt -o /dev/null &
prog=$!
trap 'kill $prog 2> /dev/null || true' EXIT
sleep 0.5
# user time, as record --pid samples it
perf record -q -e cpu-clock:u -F 999 --call-graph dwarf,8192 -p "$prog" -o perf.data -- \
	sleep "$SECONDS_ATTACHED" 2> /dev/null &
perf_pid=$!
"$CALLSCOPE" record --pid "$prog" --duration "$SECONDS_ATTACHED" > callscope.txt 2> /dev/null
wait $perf_pid || true
kill $prog 2> /dev/null || true

# NAME SELF% TOTAL% per line, from each
perf report -i perf.data --children --sort sym --stdio -g none 2> /dev/null |
	awk '/^ *[0-9.]+% +[0-9.]+% +\[\.\] / { t = $1; s = $2; sub(/%/, "", t); sub(/%/, "", s)
		name = $0; sub(/^.*\[\.\] /, "", name); sub(/ *$/, "", name); sub(/ \(inlined\)$/, "", name)
		if (!(name in seen)) { seen[name] = 1; print name, s, t } }' > perf.txt
samples=$(awk '/^# callscope record --pid/ { print $6 }' callscope.txt)
awk -v n="$samples" '!/^#/ && $1 != "%" && NF >= 4 { printf "%s %.2f %.2f\n", $4, 100 * $2 / n, 100 * $3 / n }' \
	callscope.txt > callscope-shares.txt

echo "| function | perf self % | callscope self % | perf total % | callscope total % |"
echo "| --- | ---: | ---: | ---: | ---: |"
sort -k2,2gr perf.txt | head -10 | while read -r name self total; do
	read -r cs_self cs_total < <(awk -v f="$name" '$1 == f { print $2, $3; found = 1 }
		END { if (!found) print "0 0" }' callscope-shares.txt)
	echo "| $name | $self | $cs_self | $total | $cs_total |"
done | tee rows.txt
awk -F'|' '{ d = $3 - $4; if (d < 0) d = -d; if (d > s) s = d
	d = $5 - $6; if (d < 0) d = -d; if (d > t) t = d }
	END { printf "\nLargest difference over perf'"'"'s top ten: self %.2f points, total %.2f points\n", s, t }' rows.txt
grep '^# stacks' callscope.txt
