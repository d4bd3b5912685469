#!/usr/bin/env bash
# bench/counters.sh — what reading counters at every entry and exit costs
# per call, by read method, next to plain time-only tracing.  A small
# call-heavy run (fib) under `callscope record` with no counter, with one
# and with two software counters (read() system calls: software counters
# are never readable with rdpmc), and with a hardware counter where this
# machine has one (rdpmc when the kernel allows user reads); each in a
# full trace and in count mode (--mode=count), where the program sums the
# counters per call path itself.
#
#   bench/counters.sh            prints a Markdown table
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/callscope-counters.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
N=${FIB_N:-26}	# fib(26): 392835 calls

cc -O2 -pg -o "$WORK/fib" "$ROOT/bench/progs/callheavy.c"

# best_of3 CMD...: the shortest wall time of three runs, in seconds.
best_of3() {
	local best="" t
	for _ in 1 2 3; do
		t=$( { TIMEFORMAT=%R; time "$@" >/dev/null 2>&1; } 2>&1)
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
		fi
	done
	echo "$best"
}

calls=$("$CALLSCOPE" record -o "$WORK/c.data" -- "$WORK/fib" "$N" 0 >/dev/null 2>&1 &&
	"$CALLSCOPE" report -i "$WORK/c.data" --json | jq '[.functions[].calls] | add')
plain=$(best_of3 "$WORK/fib" "$N" 0)

echo "| counters | read method | mode | time (s) | calls | ns/call over plain | ns/call for the counters |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: |"
base_trace=$(best_of3 "$CALLSCOPE" record -o "$WORK/x.data" -- "$WORK/fib" "$N" 0)
base_count=$(best_of3 "$CALLSCOPE" record --mode=count -o "$WORK/x.data" -- "$WORK/fib" "$N" 0)
# row LABEL METHOD MODE [RECORD OPTIONS...]: no options is the mode's base run
row() {
	local label=$1 method=$2 mode=$3
	shift 3
	local base
	eval base=\$base_$mode
	local t=$base
	[ $# -gt 0 ] && t=$(best_of3 "$CALLSCOPE" record --mode="$mode" "$@" -o "$WORK/x.data" -- "$WORK/fib" "$N" 0)
	awk -v l="$label" -v m="$method" -v mode="$mode" -v t="$t" -v p="$plain" -v b="$base" -v n="$calls" \
		'BEGIN { printf "| %s | %s | %s | %.3f | %d | %.0f | %.0f |\n", l, m, mode, t, n,
			(t - p) * 1e9 / n, (t - b) * 1e9 / n }'
}
for mode in trace count; do
	row "none (time only)" "—" $mode
	row "page-faults" "read()" $mode -e page-faults
	row "page-faults, context-switches" "read() × 2" $mode -e page-faults,context-switches
	if "$CALLSCOPE" list --json | jq -e '.[] | select(.name == "instructions") | .supported' >/dev/null; then
		row "instructions" "rdpmc where allowed" $mode -e instructions
	else
		echo "| instructions | — | $mode | n/a: no hardware counters on this machine | | | |"
	fi
done
