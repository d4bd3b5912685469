#!/usr/bin/env bash
# bench/calibration.sh — how steady the hooks' cost measured at start-up
# is from one run to the next.  tests/progs/exit_open, built with each kind
# of hook, is recorded RUNS times; each recording's `info --json` gives
# the cost per call the analyzer subtracts.  Prints a Markdown table: the
# runs' figures, their median, and how many lie more than 20 % from it.
# The figure is measured in place, so a neighbour on the same physical
# core (another test, another build) slows it as it slows the program's
# own calls: run this on a quiet machine, or read the table with the load
# it prints.
#
#   RUNS=9 bench/calibration.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
RUNS=${RUNS:-9}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/callscope-calibration.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "callscope $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| hooks | ns per call, sorted | median | more than 20 % from it |"
echo "| --- | --- | ---: | ---: |"
for kind in "-pg" "-pg -mfentry" "-finstrument-functions"; do
	# shellcheck disable=SC2086
	cc -O2 $kind -o "$WORK/p" "$ROOT/tests/progs/exit_open.c"
	for _ in $(seq "$RUNS"); do
		"$CALLSCOPE" record -o "$WORK/c.data" -- "$WORK/p" 1000 >/dev/null 2>&1
		"$CALLSCOPE" info -i "$WORK/c.data" --json | jq '.overhead_ns_per_call'
	done | sort -n >"$WORK/costs"
	median=$(awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' "$WORK/costs")
	off=$(awk -v m="$median" '$1 < m * 0.8 || $1 > m * 1.2 { n++ } END { print n + 0 }' "$WORK/costs")
	printf '| %s | %s | %.1f | %s of %s |\n' "$kind" \
		"$(awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 }' "$WORK/costs")" "$median" "$off" "$RUNS"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
