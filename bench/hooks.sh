#!/usr/bin/env bash
# bench/hooks.sh — what callscope's hooks cost per call on the Lua
# benchmark, mode by mode, beside glibc's gmon (the same -pg binary run
# without callscope); and how the self shares of `--mode=count
# --time-by=samples` agree with perf's on the uninstrumented build, both
# on the -pg build and with `--patch` on the uninstrumented build itself
# (the very code perf measures: -pg's own distortion of the code is gone).
# Prints Markdown.
#
# The machine may be shared: every round runs each variant once, in turn
# (interleaved), and the median of REPEAT rounds is kept; costs are taken
# from CPU time (perf stat's task-clock of the whole command, the
# launcher's too), which other work on the machine disturbs far less than
# the wall clock.
#
#   BENCH_DIR   builds and data (default /tmp/callscope-bench-hooks); the
#               Lua source is looked for under BENCH_DIR/src as run.sh does
#   CALLSCOPE   the CLI (default <repo>/build/callscope)
#   REPEAT      rounds (default 7)
#   LUA_ARGS    work.lua arguments (default "27 20")
#   SHARE_FREQ  samples per second for the share comparison (default 4999)
#   SHARE_RUNS  runs of each profiler summed for the shares (default 6: with
#               3, the largest difference of the same builds moved by a
#               point from run to run, a third of the budget)
#   CS_OPTS     more 'callscope record' options (default --no-libcall: the
#               calls gmon sees, the program's own; time in a library then
#               goes to the library's function the samples name, as perf
#               gives it)
#   SHARE_ARGS  work.lua arguments of those runs (default "27 100": longer,
#               for enough samples that their own error stays well under
#               the budget)
#   BASELINE    another build's CLI (say, of the commit before a change):
#               its runs of each callscope mode join every round, so the
#               table compares the two builds side by side (default: none)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-hooks}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
REPEAT=${REPEAT:-7}
LUA_ARGS=${LUA_ARGS:-27 20}
SHARE_FREQ=${SHARE_FREQ:-4999}
SHARE_RUNS=${SHARE_RUNS:-6}
CS_OPTS=${CS_OPTS---no-libcall}
SHARE_ARGS=${SHARE_ARGS:-27 100}
BASELINE=${BASELINE:-}

BUDGET_SAMPLES_NS=12	# --time-by=samples over gmon, ns per call
BUDGET_SHARE=3		# points, each of perf's top-10 self shares
BUDGET_TRACE_NS=30	# trace mode over the plain run, ns per call
# ... which the issue that set it reckoned as 1.5 times two reads of the
# time-stamp counter (9.7 ns each there); where a read costs more, that
# reckoning is printed beside it
BUDGET_TRACE_TSC=1.5

# shellcheck source=bench/build_lua.sh
. "$HERE/build_lua.sh"
lua_plain_and_pg || exit 1

# The variants, each a command; all but plain and patched run the -pg binary.
VARIANTS=(plain gmon samples patched count countstats flight trace)
declare -A VLABEL=(
	[plain]="plain (no -pg)"
	[gmon]="glibc gmon (-pg, no callscope)"
	[samples]="callscope --mode=count --time-by=samples"
	[patched]="callscope --patch --mode=count --time-by=samples (plain build)"
	[count]="callscope --mode=count"
	[countstats]="callscope --mode=count --call-stats"
	[flight]="callscope --mode=flight"
	[trace]="callscope record (trace)"
)
if [ -n "$BASELINE" ]; then
	for v in samples count flight trace; do
		VARIANTS+=("base_$v")
		VLABEL[base_$v]="${VLABEL[$v]}, baseline"
	done
fi
cmd_of() {
	local v=$1 d=$RUN/$1 cs=$CALLSCOPE
	case $v in base_*) cs=$BASELINE v=${v#base_} ;; esac
	case $v in
	plain) echo "$BIN/lua-plain $WORK $LUA_ARGS" ;;
	gmon) echo "$BIN/lua-pg $WORK $LUA_ARGS" ;;
	samples) echo "$cs record $CS_OPTS --mode=count --time-by=samples -o $d/cs.data -- $BIN/lua-pg $WORK $LUA_ARGS" ;;
	patched) echo "$cs record $CS_OPTS --patch --mode=count --time-by=samples -o $d/cs.data -- $BIN/lua-plain $WORK $LUA_ARGS" ;;
	count) echo "$cs record $CS_OPTS --mode=count -o $d/cs.data -- $BIN/lua-pg $WORK $LUA_ARGS" ;;
	countstats) echo "$cs record $CS_OPTS --mode=count --call-stats -o $d/cs.data -- $BIN/lua-pg $WORK $LUA_ARGS" ;;
	flight) echo "$cs record $CS_OPTS --mode=flight -o $d/cs.data -- $BIN/lua-pg $WORK $LUA_ARGS" ;;
	trace) echo "$cs record $CS_OPTS -o $d/cs.data -- $BIN/lua-pg $WORK $LUA_ARGS" ;;
	esac
}

# one_run VARIANT: "cpu wall" seconds of one run (in its own folder)
one_run() {
	local d=$RUN/$1 cmd
	mkdir -p "$d"
	rm -f "$d/cs.data" "$d/gmon.out"
	read -r -a cmd <<<"$(cmd_of "$1")"
	local t0=$EPOCHREALTIME
	(cd "$d" && perf stat -x, -e task-clock -o "$d/stat" -- "${cmd[@]}" >/dev/null 2>"$d/stderr") ||
		{ say "$1 failed: see $d/stderr"; return 1; }
	local t1=$EPOCHREALTIME
	awk -F, -v a="$t0" -v b="$t1" '$3 == "task-clock" { printf "%.4f %.4f\n", $1 / 1000, b - a }' "$d/stat"
}

# The floor under trace mode: what a read of the time-stamp counter costs
# here (bench/progs/tsc_read.c), before the rounds and after, the lower kept.
gcc -O2 -o "$BIN/tsc_read" "$HERE/progs/tsc_read.c" || { say "cannot build bench/progs/tsc_read.c"; exit 1; }
read -r tsc_alone tsc_in_work tsc_loads tsc_loads_read < <("$BIN/tsc_read")

declare -A CPU WALL
say "$REPEAT interleaved rounds of: ${VARIANTS[*]}"
# shellcheck source=bench/median.sh
. "$HERE/median.sh"
rounds_cpu_wall one_run "${VARIANTS[@]}"
spread() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f–%.3f", lo, hi }'; }

read -r tsc_alone2 tsc_in_work2 tsc_loads2 tsc_loads_read2 < <("$BIN/tsc_read")
lower() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
tsc_alone=$(lower "$tsc_alone" "$tsc_alone2")
tsc_in_work=$(lower "$tsc_in_work" "$tsc_in_work2")
tsc_loads=$(lower "$tsc_loads" "$tsc_loads2")
tsc_loads_read=$(lower "$tsc_loads_read" "$tsc_loads_read2")

calls_of() { "$CALLSCOPE" report -i "$RUN/$1/cs.data" --json | jq '[.functions[].calls] | add'; }
calls=$(calls_of count)
# the plain build inlines a little differently: its own count per call
calls_patched=$(calls_of patched)
# per_call CPU BASE [CALLS]: the difference in ns per call
per_call() { awk -v a="$1" -v b="$2" -v n="${3:-$calls}" 'BEGIN { printf "%.1f", (a - b) * 1e9 / n }'; }
verdict() { awk -v x="$1" -v l="$3" -v op="$2" 'BEGIN { exit !(op == "<=" ? x <= l : x >= l) }' && echo PASS || echo FAIL; }

# ------------------------------------------------------------ shares

# perf on the plain build, each sample given to its innermost user-space
# frame as bench/self_shares.py says.  Beside it, perf on the -pg build
# run with glibc's gmon, mcount's samples left out: how far -pg's instrumentation by itself
# moves the shares, which no attribution of samples can undo -- and which
# `--patch` on the plain build avoids: its column is the same code perf
# samples, only the entries' jumps and trampolines added.
say "shares: perf at $SHARE_FREQ Hz on the plain and -pg builds, callscope --time-by=samples on -pg, $SHARE_RUNS runs each"
: > "$RUN/perf-pg.txt"
for ((r = 0; r < SHARE_RUNS; r++)); do
	(cd "$RUN" && perf record -q -e cpu-clock -F "$SHARE_FREQ" --call-graph=dwarf -o "perf$r.data" -- \
		"$BIN/lua-plain" "$WORK" $SHARE_ARGS >/dev/null 2>&1)
	perf script --no-inline -i "$RUN/perf$r.data" -F ip,sym,dso 2>/dev/null
	(cd "$RUN" && perf record -q -e cpu-clock -F "$SHARE_FREQ" --call-graph=dwarf -o "perfpg$r.data" -- \
		"$BIN/lua-pg" "$WORK" $SHARE_ARGS >/dev/null 2>&1)
	perf script --no-inline -i "$RUN/perfpg$r.data" -F ip,sym,dso 2>/dev/null >> "$RUN/perf-pg.txt"
	# shellcheck disable=SC2086
	(cd "$RUN" && "$CALLSCOPE" record $CS_OPTS --mode=count --time-by=samples --freq="$SHARE_FREQ" \
		-o "cs$r.data" -- "$BIN/lua-pg" "$WORK" $SHARE_ARGS >/dev/null 2>&1)
	# shellcheck disable=SC2086
	(cd "$RUN" && "$CALLSCOPE" record $CS_OPTS --patch --mode=count --time-by=samples \
		--freq="$SHARE_FREQ" -o "csp$r.data" -- "$BIN/lua-plain" "$WORK" $SHARE_ARGS >/dev/null 2>&1)
done > "$RUN/perf.txt"
python3 - "$RUN" "$SHARE_RUNS" "$CALLSCOPE" "$HERE" > "$RUN/shares.md" <<'EOF'
import sys
run, nruns, cs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, sys.argv[4])
from self_shares import perf_shares, callscope_self

perf, total = perf_shares(run + "/perf.txt")
perfpg, totalpg = perf_shares(run + "/perf-pg.txt")
csn, cst = callscope_self(cs, ["%s/cs%d.data" % (run, r) for r in range(nruns)])
csp, cspt = callscope_self(cs, ["%s/csp%d.data" % (run, r) for r in range(nruns)])
top = sorted(perf, key=perf.get, reverse=True)[:10]
worst = worst_pg = worst_patch = 0
print("| function | perf self % (plain) | callscope self % (--time-by=samples, -pg) | difference | perf self % (-pg with gmon, mcount left out) | callscope against it | callscope self % (--patch --time-by=samples, plain) | difference from perf (plain) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for s in top:
    p = 100.0 * perf[s] / total
    c = 100.0 * csn.get(s, 0) / cst if cst else 0
    g = 100.0 * perfpg.get(s, 0) / totalpg if totalpg else 0
    q = 100.0 * csp.get(s, 0) / cspt if cspt else 0
    worst = max(worst, abs(p - c))
    worst_pg = max(worst_pg, abs(g - c))
    worst_patch = max(worst_patch, abs(p - q))
    print("| %s | %.1f | %.1f | %+.1f | %.1f | %+.1f | %.1f | %+.1f |" % (s, p, c, c - p, g, c - g, q, q - p))
print()
print("perf: %d samples in the program (plain), %d (-pg); largest difference: %.1f points "
      "against the plain build, %.1f against the -pg build; with --patch on the plain build, "
      "%.1f against the plain build" % (total, totalpg, worst, worst_pg, worst_patch))
print("WORST %.2f" % worst)
print("WORST_PATCH %.2f" % worst_patch)
EOF
worst=$(awk '$1 == "WORST" { print $2 }' "$RUN/shares.md")
worst_patch=$(awk '$1 == "WORST_PATCH" { print $2 }' "$RUN/shares.md")

hook_share_of() {
	"$CALLSCOPE" report -i "$RUN/$1" --json |
		jq '.time_hook_samples * 100 / (.time_samples + .time_hook_samples) | . * 10 | floor / 10'
}
hook_share=$(hook_share_of cs0.data)
hook_share_patch=$(hook_share_of csp0.data)
git_rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
	echo "## Hooks per call on Lua, beside gmon — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
	[ -z "$BASELINE" ] || echo "Baseline: \`$BASELINE\`, its runs interleaved with the others in every round."
	echo "callscope $git_rev; \`lua work.lua $LUA_ARGS\`, $calls calls; callscope options \`$CS_OPTS\`; medians of $REPEAT interleaved rounds; CPU = task-clock of the whole command (perf stat), launcher included."
	echo
	echo "| run | CPU (s), median | CPU range | wall (s), median | ns/call over plain (CPU) | ns/call over gmon (CPU) |"
	echo "| --- | ---: | --- | ---: | ---: | ---: |"
	for v in "${VARIANTS[@]}"; do
		c=$(median "${CPU[$v]}")
		over_plain="—"
		over_gmon="—"
		n=$calls
		[ "$v" = patched ] && n=$calls_patched
		[ "$v" = plain ] || over_plain=$(per_call "$c" "$(median "${CPU[plain]}")" "$n")
		case $v in plain | gmon | patched) ;; *) over_gmon=$(per_call "$c" "$(median "${CPU[gmon]}")") ;; esac
		echo "| ${VLABEL[$v]} | $c | $(spread "${CPU[$v]}") | $(median "${WALL[$v]}") | $over_plain | $over_gmon |"
	done
	echo
	s_ns=$(per_call "$(median "${CPU[samples]}")" "$(median "${CPU[gmon]}")")
	t_ns=$(per_call "$(median "${CPU[trace]}")" "$(median "${CPU[plain]}")")
	echo "| check | value | budget | result |"
	echo "| --- | ---: | ---: | --- |"
	echo "| --time-by=samples, ns/call over gmon | $s_ns | ≤ $BUDGET_SAMPLES_NS | $(verdict "$s_ns" "<=" "$BUDGET_SAMPLES_NS") |"
	echo "| top-10 self shares against perf, largest difference (points) | $worst | ≤ $BUDGET_SHARE | $(verdict "$worst" "<=" "$BUDGET_SHARE") |"
	echo "| the same with --patch on the plain build (points) | $worst_patch | ≤ $BUDGET_SHARE | $(verdict "$worst_patch" "<=" "$BUDGET_SHARE") |"
	echo "| trace, ns/call over plain | $t_ns | ≤ $BUDGET_TRACE_NS | $(verdict "$t_ns" "<=" "$BUDGET_TRACE_NS") |"
	t_tsc=$(awk -v t="$t_ns" -v r="$tsc_alone" 'BEGIN { printf "%.2f", t / (2 * r) }')
	echo "| trace, ns/call over plain, in reads of the clock (two reads: $(awk -v r="$tsc_alone" 'BEGIN { printf "%.1f", 2 * r }') ns) | $t_tsc× | ≤ $BUDGET_TRACE_TSC× | $(verdict "$t_tsc" "<=" "$BUDGET_TRACE_TSC") |"
	c_over=$(awk -v c="$(median "${CPU[count]}")" -v t="$(median "${CPU[trace]}")" -v f="$(median "${CPU[flight]}")" 'BEGIN { print (c < t && c < f) ? "PASS" : "FAIL" }')
	echo "| count (clock) cheaper than trace and flight | count $(median "${CPU[count]}") s, trace $(median "${CPU[trace]}") s, flight $(median "${CPU[flight]}") s | count < both | $c_over |"
	echo
	echo "One read of the time-stamp counter (bench/progs/tsc_read.c, the lower of a measurement before the rounds and one after): $tsc_alone ns back to back; it adds $tsc_in_work ns to independent work around it (where that is close to the first figure, the CPU runs nothing else while it reads, and the hooks' other work adds to the clock's cost in full). Random loads from 128 MiB, which miss the caches: $tsc_loads ns a load alone, $tsc_loads_read ns with a read of the counter after each (where the second is a whole miss, the read waits for the loads before it, and the program's own misses, overlapped across calls without the hooks, are paid one by one at every hook that reads the clock)."
	echo
	echo "Samples in the hooks (--time-by=samples, counted apart): $hook_share % of the run's samples on the -pg build, $hook_share_patch % with --patch (entry jumps and trampolines included)."
	echo
	echo "### Self shares, top 10 of perf (\`work.lua $SHARE_ARGS\`, $SHARE_RUNS runs each at $SHARE_FREQ Hz)"
	echo
	grep -v '^WORST' "$RUN/shares.md"
} | tee "$BENCH_DIR/hooks.md"
