#!/bin/sh
# bench/html/run.sh — the HTML report on big call trees, in Debian's
# headless Chromium: page size, time to the first drawn flame graph, zoom
# and search latency, memory; speedscope (from the npm registry) on the
# same profiles for comparison.  Prints a Markdown table; see README.md.
#
#   make && sh bench/html/run.sh
#
# Knobs: BENCH_DIR (scratch, default /tmp/callscope-bench-html), CALLSCOPE,
# DEPTHS (default "10 11": 1.4 M and 5.6 M call paths), SPEEDSCOPE=0 to skip it.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-html}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
DEPTHS=${DEPTHS:-10 11}
SPEEDSCOPE=${SPEEDSCOPE:-1}
mkdir -p "$BENCH_DIR"
say() { printf 'bench/html: %s\n' "$*" >&2; }

[ -x "$CALLSCOPE" ] || { say "build callscope first (make)"; exit 1; }
[ -x /usr/bin/chromium ] || { say "needs Debian's chromium"; exit 1; }
if ! (cd "$ROOT/tests/html" && node -e "require('playwright-core')") 2>/dev/null; then
	(cd "$ROOT/tests/html" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
if [ "$SPEEDSCOPE" = 1 ] && [ ! -f "$BENCH_DIR/speedscope/node_modules/speedscope/dist/release/index.html" ]; then
	mkdir -p "$BENCH_DIR/speedscope"
	(cd "$BENCH_DIR/speedscope" && echo '{"private":true}' > package.json &&
		npm install --no-audit --no-fund --loglevel=error speedscope@1.25.0) >&2 || SPEEDSCOPE=0
fi

cc -O1 -g -finstrument-functions -o "$BENCH_DIR/paths" "$HERE/paths.c"
results=$BENCH_DIR/results.jsonl
: > "$results"
measure() {
	say "measuring $1"
	node "$HERE/measure.js" "$1" >> "$results"
}
for d in $DEPTHS; do
	data=$BENCH_DIR/paths$d.data
	"$CALLSCOPE" record -o "$data" -- "$BENCH_DIR/paths" "$d" >/dev/null 2>&1
	s=$(date +%s.%N)
	"$CALLSCOPE" html -i "$data" -o "$BENCH_DIR/paths$d.html" >&2
	say "html for depth $d took $(echo "$(date +%s.%N) - $s" | bc) s, data file $(stat -c %s "$data") bytes"
	measure "$BENCH_DIR/paths$d.html"
	if [ "$d" = 11 ]; then
		# a 1 M-path page cut from the 5.6 M one: the budget's case exactly
		"$CALLSCOPE" html -i "$data" --max-nodes 1000000 -o "$BENCH_DIR/paths${d}-1M.html" >&2
		measure "$BENCH_DIR/paths${d}-1M.html"
	fi
	if [ "$SPEEDSCOPE" = 1 ]; then
		"$CALLSCOPE" export -i "$data" --format folded -o "$BENCH_DIR/paths$d.folded"
		say "speedscope on depth $d"
		timeout 600 node "$HERE/speedscope.js" \
			"$BENCH_DIR/speedscope/node_modules/speedscope/dist/release/index.html" \
			"$BENCH_DIR/paths$d.folded" >> "$results" || echo '{"tool":"speedscope","file":"paths'"$d"'.folded","errors":["failed or timed out"]}' >> "$results"
	fi
done

echo "| page | bytes | call paths | first draw | zoom (max) | search (max) | JS heap | browser PSS |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
jq -r 'select(.tool != "speedscope") | "| \(.file) | \(.bytes) | \(.nodes - 1) | \(.firstDrawMs | floor) ms | \(.zoomMs | max | floor) ms | \(.searchMs | max | floor) ms | \(.heapMB | floor) MB | \(.browserPssMB | floor) MB |"' "$results"
echo
echo "| speedscope | bytes (folded) | first draw | browser PSS |"
echo "| --- | ---: | ---: | ---: |"
jq -r 'select(.tool == "speedscope") | "| \(.file) | \(.bytes // "") | \(.firstDrawMs // "failed") ms | \((.browserPssMB // 0) | floor) MB |"' "$results"
