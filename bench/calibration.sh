#!/usr/bin/env bash
# bench/calibration.sh — how steady the hooks' cost measured in place is
# from one run to the next.  tests/progs/exit_open, built with each kind
# of hook, is recorded RUNS times; each recording's `info --json` gives
# the cost per call measured at start-up, the one measured again at exit,
# and the one the analyzer subtracts (the lower).  Prints a Markdown
# table per kind: the runs' figures, their median, and how many lie more
# than 20 % from it.  The figure is measured in place, so a neighbour on
# the same physical core (another test, another build) slows it as it
# slows the program's own calls: read the table with the load it prints.
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
echo "| hooks | measured | ns per call, sorted | median | more than 20 % from it |"
echo "| --- | --- | --- | ---: | ---: |"
# row KIND WHAT FILE: the table row of the figures in FILE
row() {
	local median off
	median=$(sort -n "$3" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	off=$(awk -v m="$median" '$1 < m * 0.8 || $1 > m * 1.2 { n++ } END { print n + 0 }' "$3")
	printf '| %s | %s | %s | %.1f | %s of %s |\n' "$1" "$2" \
		"$(sort -n "$3" | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 }')" "$median" "$off" "$RUNS"
}
for kind in "-pg" "-pg -mfentry" "-finstrument-functions"; do
	# shellcheck disable=SC2086
	cc -O2 $kind -o "$WORK/p" "$ROOT/tests/progs/exit_open.c"
	: >"$WORK/start"
	: >"$WORK/exit"
	: >"$WORK/used"
	for _ in $(seq "$RUNS"); do
		"$CALLSCOPE" record -o "$WORK/c.data" -- "$WORK/p" 1000 >/dev/null 2>&1
		"$CALLSCOPE" info -i "$WORK/c.data" --json >"$WORK/i.json"
		jq '.processes[0].hook_ns_at_start' "$WORK/i.json" >>"$WORK/start"
		jq '.processes[0].hook_ns_at_exit' "$WORK/i.json" >>"$WORK/exit"
		jq '.overhead_ns_per_call' "$WORK/i.json" >>"$WORK/used"
	done
	row "$kind" "at start" "$WORK/start"
	row "$kind" "at exit" "$WORK/exit"
	row "$kind" "subtracted (the lower)" "$WORK/used"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
