#!/usr/bin/env bash
# bench/patch.sh — what tracing by patched function entries (`record
# --patch`, on the plain -O2 Lua build) costs per traced call, beside
# tracing the same code built with -pg (`record` on the -pg build), in one
# run.  Prints Markdown.
#
# Cost per call is the slope between two workload sizes: (CPU of the
# large run - CPU of the small run) / (calls of the large - calls of the
# small), for each variant and for the untraced plain build.  So what every
# run pays once (the launcher, --patch's analysis of the program, the
# calibration, sealing) cancels out, and what is left is what each call
# pays.  The machine may be shared: every round runs each variant once, in
# turn, and the median of REPEAT rounds is kept; CPU is perf stat's
# task-clock of the whole command.
#
#   BENCH_DIR   builds and data (default /tmp/callscope-bench-patch); the
#               Lua source is looked for under BENCH_DIR/src as run.sh does
#   CALLSCOPE   the CLI (default <repo>/build/callscope)
#   REPEAT      rounds (default 7)
#   SMALL, LARGE  work.lua arguments of the two sizes (default "20 5", "27 20")
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-patch}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
REPEAT=${REPEAT:-7}
SMALL=${SMALL:-20 5}
LARGE=${LARGE:-27 20}

BUDGET_NS=10	# --patch over -pg tracing, ns per traced call

# shellcheck source=bench/build_lua.sh
. "$HERE/build_lua.sh"
lua_plain_and_pg || exit 1

VARIANTS=(plain patch pg)
declare -A VLABEL=(
	[plain]="plain -O2 build, untraced"
	[patch]="callscope record --patch, plain -O2 build"
	[pg]="callscope record, -pg build"
)
# cmd_of VARIANT SIZE
cmd_of() {
	local d=$RUN/$1
	case $1 in
	plain) echo "$BIN/lua-plain $WORK $2" ;;
	patch) echo "$CALLSCOPE record --no-libcall --patch -o $d/cs.data -- $BIN/lua-plain $WORK $2" ;;
	pg) echo "$CALLSCOPE record --no-libcall -o $d/cs.data -- $BIN/lua-pg $WORK $2" ;;
	esac
}

# one_run VARIANT SIZE: CPU seconds of one run (in its own folder)
one_run() {
	local d=$RUN/$1 cmd
	mkdir -p "$d"
	rm -f "$d/cs.data"
	read -r -a cmd <<<"$(cmd_of "$1" "$2")"
	(cd "$d" && perf stat -x, -e task-clock -o "$d/stat" -- "${cmd[@]}" >"$d/out" 2>"$d/stderr") ||
		{ say "$1 failed: see $d/stderr"; return 1; }
	awk -F, '$3 == "task-clock" { printf "%.4f\n", $1 / 1000 }' "$d/stat"
}
calls_of() { "$CALLSCOPE" report -i "$1" --json | jq '[.functions[].calls] | add'; }

declare -A CPU
declare -A CALLS
say "$REPEAT interleaved rounds of: ${VARIANTS[*]} at sizes '$SMALL' and '$LARGE'"
for ((r = 0; r < REPEAT; r++)); do
	for size in small large; do
		args=$SMALL
		[ $size = large ] && args=$LARGE
		for v in "${VARIANTS[@]}"; do
			c=$(one_run "$v" "$args")
			CPU[$v.$size]="${CPU[$v.$size]:-} $c"
			if [ "$v" != plain ] && [ -z "${CALLS[$v.$size]:-}" ]; then
				CALLS[$v.$size]=$(calls_of "$RUN/$v/cs.data")
			fi
			[ "$v" = patch ] && [ $size = large ] && cp "$RUN/$v/stderr" "$RUN/patch.stderr"
		done
	done
done
cmp -s "$RUN/plain/out" "$RUN/patch/out" || { say "--patch changed the program's output"; exit 1; }
# shellcheck source=bench/median.sh
. "$HERE/median.sh"
spread() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f–%.3f", lo, hi }'; }
# slope V CALLS_SMALL CALLS_LARGE: ns per call of V over the plain build
slope() {
	awk -v a="$(median "${CPU[$1.large]}")" -v b="$(median "${CPU[$1.small]}")" \
		-v pa="$(median "${CPU[plain.large]}")" -v pb="$(median "${CPU[plain.small]}")" \
		-v n="$2" -v m="$3" 'BEGIN { printf "%.1f", ((a - b) - (pa - pb)) * 1e9 / (m - n) }'
}
patch_ns=$(slope patch "${CALLS[patch.small]}" "${CALLS[patch.large]}")
pg_ns=$(slope pg "${CALLS[pg.small]}" "${CALLS[pg.large]}")
diff_ns=$(awk -v a="$patch_ns" -v b="$pg_ns" 'BEGIN { printf "%.1f", a - b }')
verdict=$(awk -v d="$diff_ns" -v l="$BUDGET_NS" 'BEGIN { print (d <= l) ? "PASS" : "FAIL" }')
patched=$(grep -o 'patching the entries of [0-9]* of [0-9]* functions' "$RUN/patch.stderr" || echo "?")
git_rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
	echo "## Patched entries against -pg tracing, per call — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "callscope $git_rev; \`lua work.lua\` at sizes \`$SMALL\` and \`$LARGE\`; --patch: $patched; medians of $REPEAT interleaved rounds; CPU = task-clock of the whole command (perf stat), launcher included."
	echo
	echo "| run | CPU (s) small, median | CPU (s) large, median | large range | calls small | calls large |"
	echo "| --- | ---: | ---: | --- | ---: | ---: |"
	for v in "${VARIANTS[@]}"; do
		echo "| ${VLABEL[$v]} | $(median "${CPU[$v.small]}") | $(median "${CPU[$v.large]}") | $(spread "${CPU[$v.large]}") | ${CALLS[$v.small]:-—} | ${CALLS[$v.large]:-—} |"
	done
	echo
	echo "| check | value | budget | result |"
	echo "| --- | ---: | ---: | --- |"
	echo "| --patch, ns per traced call over the untraced plain build | $patch_ns | | |"
	echo "| -pg tracing, ns per traced call over the untraced plain build | $pg_ns | | |"
	echo "| --patch over -pg tracing, ns per call | $diff_ns | ≤ $BUDGET_NS | $verdict |"
} | tee "$BENCH_DIR/patch.md"
