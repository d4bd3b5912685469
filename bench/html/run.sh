#!/bin/sh
# bench/html/run.sh — the HTML report on big call trees, in Debian's
# headless Chromium: page size, time to the first drawn flame graph, zoom
# and search latency, memory; speedscope and FlameGraph's SVG (both from
# the npm registry) on the same profiles for comparison, and a recording
# of more than 100 MB.  Prints Markdown tables; see README.md.
#
#   make && sh bench/html/run.sh
#
# Knobs: BENCH_DIR (scratch, default /tmp/callscope-bench-html), CALLSCOPE,
# DEPTHS (default "10 11": 1.4 M and 5.6 M call paths), SPEEDSCOPE=0 and
# FLAMEGRAPH=0 to skip those, BIG=0 to skip the 100 MB recording.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-html}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
DEPTHS=${DEPTHS:-10 11}
SPEEDSCOPE=${SPEEDSCOPE:-1}
FLAMEGRAPH=${FLAMEGRAPH:-1}
BIG=${BIG:-1}
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

# "flamegraph" on npm: a port of flamegraph.pl (FlameGraph itself has no
# Debian or npm package, and crates.io's inferno is not reachable here)
if [ "$FLAMEGRAPH" = 1 ] && [ ! -d "$BENCH_DIR/flamegraph/node_modules/flamegraph" ]; then
	mkdir -p "$BENCH_DIR/flamegraph"
	(cd "$BENCH_DIR/flamegraph" && echo '{"private":true}' > package.json &&
		npm install --no-audit --no-fund --loglevel=error flamegraph@1.3.0) >&2 || FLAMEGRAPH=0
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
	if [ "$SPEEDSCOPE" = 1 ] || [ "$FLAMEGRAPH" = 1 ]; then
		"$CALLSCOPE" export -i "$data" --format folded -o "$BENCH_DIR/paths$d.folded"
	fi
	# the package holds the whole flow in memory: depth 11 needs more than 6 GB
	if [ "$FLAMEGRAPH" = 1 ] && [ "$d" -le 10 ]; then
		say "FlameGraph's SVG of depth $d"
		timeout 900 node --max-old-space-size=6144 "$HERE/flamegraph.js" "$BENCH_DIR/flamegraph" \
			"$BENCH_DIR/paths$d.folded" "$BENCH_DIR/paths$d.svg" >> "$results" ||
			echo '{"tool":"flamegraph","file":"paths'"$d"'.folded","errors":["failed or timed out"]}' >> "$results"
	fi
	if [ "$SPEEDSCOPE" = 1 ]; then
		say "speedscope on depth $d"
		timeout 600 node "$HERE/speedscope.js" \
			"$BENCH_DIR/speedscope/node_modules/speedscope/dist/release/index.html" \
			"$BENCH_DIR/paths$d.folded" >> "$results" || echo '{"tool":"speedscope","file":"paths'"$d"'.folded","errors":["failed or timed out"]}' >> "$results"
	fi
done

# A recording of more than 100 MB: fib(35) of tests/progs/basic.c, 30 M
# calls on 40 call paths.  The page keeps the longest million calls on the
# timeline (the default) and must stay within the 32 MB budget.
if [ "$BIG" = 1 ]; then
	cc -O0 -g -finstrument-functions -o "$BENCH_DIR/fib" "$ROOT/tests/progs/basic.c"
	"$CALLSCOPE" record -o "$BENCH_DIR/fib35.data" -- "$BENCH_DIR/fib" 35 >/dev/null 2>&1
	s=$(date +%s.%N)
	"$CALLSCOPE" html -i "$BENCH_DIR/fib35.data" -o "$BENCH_DIR/fib35.html" >&2
	say "html of the $(stat -c %s "$BENCH_DIR/fib35.data")-byte recording took $(echo "$(date +%s.%N) - $s" | bc) s"
	measure "$BENCH_DIR/fib35.html"
fi

echo "| page | bytes | call paths | first draw | zoom (max) | search (max) | JS heap | browser PSS |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
jq -r 'select(.tool == null) | "| \(.file) | \(.bytes) | \(.nodes - 1) | \(.firstDrawMs | floor) ms | \(.zoomMs | max | floor) ms | \(.searchMs | max | floor) ms | \(.heapMB | floor) MB | \(.browserPssMB | floor) MB |"' "$results"
echo
echo "| speedscope | bytes (folded) | first draw | browser PSS |"
echo "| --- | ---: | ---: | ---: |"
jq -r 'select(.tool == "speedscope") | "| \(.file) | \(.bytes // "") | \(.firstDrawMs // "failed") ms | \((.browserPssMB // 0) | floor) MB |"' "$results"
echo
echo "| FlameGraph SVG | SVG bytes | frames drawn | making the SVG | first draw | browser PSS |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
jq -r 'select(.tool == "flamegraph") | "| \(.file) | \(.bytes // "") | \(.frames // "") | \(.svgMs // "failed") ms | \(.firstDrawMs // "failed") ms | \((.browserPssMB // 0) | floor) MB |"' "$results"
