#!/usr/bin/env bash
# bench/patch-sites.sh — what one traced call costs through each kind of
# patched entry `record --patch` writes: a 5-byte jump (most entries), a
# 2-byte jump to a 5-byte one in nearby padding (an entry with a loop head
# in its first bytes), and an int3 whose SIGTRAP the runtime turns into the
# jump (where no jump fits).  bench/progs/patch_sites.c calls one function
# of each kind N times; --patch=NAME patches that function alone.  Prints
# Markdown.
#
# Cost per call is the slope between two sizes, (CPU large - CPU small) /
# (N large - N small), less the untraced plain build's slope over the same
# sizes: what every run pays once (the launcher, the analysis, the
# calibration, sealing) cancels out.  Each round runs every variant once,
# in turn, and the median of REPEAT rounds is kept; CPU is perf stat's
# task-clock of the whole command.
#
#   BENCH_DIR   builds and data (default /tmp/callscope-bench-sites)
#   CALLSCOPE   the CLI (default <repo>/build/callscope)
#   REPEAT      rounds (default 5)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-sites}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
REPEAT=${REPEAT:-5}
RUN=$BENCH_DIR/run
mkdir -p "$RUN"
say() { printf 'bench: %s\n' "$*" >&2; }
PROG=$BENCH_DIR/patch_sites
cc -O2 -o "$PROG" "$HERE/progs/patch_sites.c"

KINDS=(jump short trap)
declare -A FN=([jump]=site_jump [short]=site_short [trap]=site_trap)
declare -A KIND=([jump]="5-byte jump" [short]="2-byte jump to a 5-byte one in an island" [trap]="int3 (SIGTRAP)")
# calls at the two sizes: a trap costs microseconds, the jumps nanoseconds
declare -A SMALL=([jump]=100000 [short]=100000 [trap]=10000)
declare -A LARGE=([jump]=2100000 [short]=2100000 [trap]=110000)

# cpu_of LABEL COMMAND...: CPU seconds of one run
cpu_of() {
	local d=$RUN/$1
	shift
	mkdir -p "$d"
	(cd "$d" && perf stat -x, -e task-clock -o "$d/stat" -- "$@" > "$d/out" 2> "$d/stderr") ||
		{ say "$1 failed: see $d/stderr"; return 1; }
	awk -F, '$3 == "task-clock" { printf "%.5f\n", $1 / 1000 }' "$d/stat"
}

declare -A CPU
say "$REPEAT interleaved rounds of: plain and --patch for ${KINDS[*]}"
for ((r = 0; r < REPEAT; r++)); do
	for k in "${KINDS[@]}"; do
		for size in SMALL LARGE; do
			declare -n sz=$size
			n=${sz[$k]}
			CPU[plain.$k.$size]+=" $(cpu_of "plain-$k" "$PROG" "$k" "$n")"
			CPU[patch.$k.$size]+=" $(cpu_of "patch-$k" "$CALLSCOPE" record --no-libcall \
				--patch="${FN[$k]}" -o cs.data -- "$PROG" "$k" "$n")"
		done
	done
done
# shellcheck source=bench/median.sh
. "$HERE/median.sh"
echo "## Per-call cost by kind of patched entry (\`bench/patch-sites.sh\`) — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
echo "callscope $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); medians of $REPEAT interleaved rounds; CPU = task-clock of the whole command (perf stat)."
echo
echo "| entry | calls small / large | traced, ns per call over untraced | kind in the plan |"
echo "| --- | ---: | ---: | --- |"
for k in "${KINDS[@]}"; do
	# the trap is checked: a recording says which entries trap
	"$CALLSCOPE" record --no-libcall --patch="${FN[$k]}" -o "$RUN/kind.data" -- "$PROG" "$k" 10 > /dev/null 2>&1
	trapped=$("$CALLSCOPE" info --json "$RUN/kind.data" | jq '.patch.trapped')
	[ "$trapped" = "$([ "$k" = trap ] && echo 1 || echo 0)" ] || { say "$k: $trapped entries trap"; exit 1; }
	ns=$(awk -v a="$(median "${CPU[patch.$k.LARGE]}")" -v b="$(median "${CPU[patch.$k.SMALL]}")" \
		-v pa="$(median "${CPU[plain.$k.LARGE]}")" -v pb="$(median "${CPU[plain.$k.SMALL]}")" \
		-v n="${SMALL[$k]}" -v m="${LARGE[$k]}" 'BEGIN { printf "%.1f", ((a - b) - (pa - pb)) * 1e9 / (m - n) }')
	echo "| ${FN[$k]} | ${SMALL[$k]} / ${LARGE[$k]} | $ns | ${KIND[$k]} |"
done
