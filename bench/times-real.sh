#!/usr/bin/env bash
# bench/times-real.sh — a trace's compensated self times (the clock read
# at every entry and exit, the hooks' measured cost subtracted) against
# perf's samples of the uninstrumented build, on three real programs from
# Debian source built as their users build them (-O2 -g): lua 5.4 running
# the project's Lua benchmark, bzip2 -9 and zstd -12 compressing generated
# text.  For each: perf's ten largest self shares among the program's own
# functions (`perf record -e cpu-clock`, each sample to the function its
# PC is in, as `perf report --no-children` gives it; libc and the kernel
# count in the whole), beside callscope's on the -pg build (library calls
# traced, so their time is theirs, not the caller's, as perf's self time
# has it), RUNS runs of each summed; and per traced run the hooks' cost
# measured at start and at exit, how much of the run the main thread
# waited for a CPU, and how much of that waiting its clock left out (the
# time it was preempted; the rest is in the times).  Prints Markdown.
#
#   BENCH_DIR  builds and data (default /tmp/callscope-bench-times-real)
#   CALLSCOPE  the CLI (default <repo>/build/callscope)
#   SRC        the unpacked Debian sources: lua5.4-*, bzip2-*, libzstd-*
#              (default /work/scratch/src)
#   RUNS       runs of each profiler per program (default 3)
#   FREQ       perf's samples per second (default 4999)
#   OUTSIDE_FREQ  callscope's samples beside the trace, per second of CPU
#              (record --outside-freq; default 997): the samples that fall
#              in the hooks measure their cost in place (docs/report.md)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-times-real}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
SRC=${SRC:-/work/scratch/src}
RUNS=${RUNS:-3}
FREQ=${FREQ:-4999}
OUTSIDE_FREQ=${OUTSIDE_FREQ:-997}
BUDGET=3	# points, each of perf's top ten
CFLAGS_DISTRO="-O2 -g"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"

# --- the programs, each built plain and with -pg from a copy of its source
# build_lua KIND FLAGS, build_bzip2 KIND FLAGS, build_zstd KIND FLAGS: the
# binary at KIND/<program>
build_lua() {
	[ -x "$1/lua" ] && return
	mkdir -p "$1"
	rm -rf "$1/luasrc" && cp -r "$(ls -d "$SRC"/lua5.4-*/ | head -1)" "$1/luasrc"
	echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' > "$1/luasrc/src/lua5.4-deb-multiarch.h"
	# shellcheck disable=SC2086
	(cd "$1/luasrc/src" && cc $CFLAGS_DISTRO $2 -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I. \
		-o ../../lua $(ls ./*.c | grep -v '/luac\.c$') -lm -ldl)
}
build_bzip2() {
	[ -x "$1/bzip2" ] && return
	mkdir -p "$1"
	rm -rf "$1/bzip2src" && cp -r "$(ls -d "$SRC"/bzip2-*/ | head -1)" "$1/bzip2src"
	# its library linked in, as upstream's Makefile does
	# shellcheck disable=SC2086
	(cd "$1/bzip2src" && cc $CFLAGS_DISTRO $2 -D_FILE_OFFSET_BITS=64 -o ../bzip2 bzip2.c \
		blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c)
}
build_zstd() {
	[ -x "$1/zstd" ] && return
	mkdir -p "$1"
	rm -rf "$1/zstdsrc" && cp -r "$(ls -d "$SRC"/libzstd-*/ | head -1)" "$1/zstdsrc"
	make -s -C "$1/zstdsrc/programs" zstd CFLAGS="$CFLAGS_DISTRO $2" LDFLAGS="$2" HAVE_ZLIB=0 \
		HAVE_LZMA=0 HAVE_LZ4=0 HAVE_THREAD=0 > /dev/null 2>&1
	cp "$1/zstdsrc/programs/zstd" "$1/zstd"
}
for kind in plain pg; do
	flags=""
	[ $kind = pg ] && flags="-pg"
	build_lua $kind "$flags"
	build_bzip2 $kind "$flags"
	build_zstd $kind "$flags"
done

# --- the inputs: text with some repetition, the same every run ----------
[ -s text.txt ] || awk -v n=60000 'BEGIN { srand(7);
	split("the of and to in is was that for it with as his on be at by had", w, " ");
	for (i = 0; i < n; i++) { line = ""; for (k = 0; k < 8; k++)
		line = line w[int(rand() * 18) + 1] int(rand() * 50) " "; print line } }' > text.txt

# name|program|arguments
programs=(
	"lua 5.4 (bench/progs/work.lua 27 20)|lua|$HERE/progs/work.lua 27 20"
	"bzip2 -9|bzip2|-9 -c text.txt"
	"zstd -12|zstd|-12 -q -c text.txt"
)

# perf_self PROG FILES...: "function samples" of PROG's own functions,
# then "TOTAL n": every sample of the process (libc, kernel included)
perf_self() {
	local prog=$1
	shift
	for f in "$@"; do perf script -i "$f" -F comm,ip,sym,dso 2> /dev/null; done |
		awk -v p="$prog" '$1 == p { total++; dso = $NF; sub(/^\(/, "", dso); sub(/\)$/, "", dso);
			n = split(dso, parts, "/"); if (parts[n] == p && NF >= 4) self[$3]++ }
			END { for (s in self) print s, self[s]; print "TOTAL", total + 0 }'
}

git_rev=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo unknown)
echo "## Trace-mode self times against perf on three real programs — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r); load average at the start $(cut -d' ' -f1-3 /proc/loadavg)."
echo "callscope $git_rev; \`$CFLAGS_DISTRO\` builds from Debian source; perf \`-e cpu-clock -F $FREQ\` on the plain build,"
echo "\`callscope record --outside-freq=$OUTSIDE_FREQ\` (trace, the clock, library calls traced) on the \`-pg\` build; $RUNS runs of each, summed."
worst_all=0
for entry in "${programs[@]}"; do
	IFS='|' read -r name prog args <<< "$entry"
	perf_files=()
	: > cs.runs
	for ((r = 0; r < RUNS; r++)); do
		# shellcheck disable=SC2086
		perf record -q -e cpu-clock -F "$FREQ" -o "perf$r.data" -- "plain/$prog" $args > /dev/null 2>&1
		perf_files+=("perf$r.data")
		# shellcheck disable=SC2086
		"$CALLSCOPE" record --outside-freq="$OUTSIDE_FREQ" -o cs.data -- "pg/$prog" $args > /dev/null 2> cs.err
		"$CALLSCOPE" report -i cs.data --json > "cs$r.json"
		"$CALLSCOPE" info -i cs.data --json |
			jq -r '.processes[0] | "\(.hook_ns_at_start) \(.hook_ns_at_exit // "-") \(.run_cpu_ns // 0) \(.run_wait_ns // 0) \(.run_wait_left_out_ns // 0) \(.hook_ns_in_place // "-") \(.hook_samples // 0) \(.hook_cost_from // "calibration")"' >> cs.runs
		calls=$(jq '.calls' "cs$r.json")
		rm -f cs.data
	done
	perf_self "$prog" "${perf_files[@]}" > perf.self
	echo
	echo "### $name"
	echo
	echo "$calls calls a run. Per traced run, the hooks' cost per call calibrated at start and at exit, and measured in place by the samples beside the trace that fell in the hooks (ns; how many samples; which figure was subtracted: the in-place one from 25 samples on, else the lower calibrated one), the share of the run the main thread waited for a CPU, and the share of that waiting its clock left out of the times:"
	echo
	echo "| run | at start | at exit | in place | samples in the hooks | subtracted | waited for a CPU | of it left out |"
	echo "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
	awk '{ w = $3 + $4 > 0 ? 100 * $4 / ($3 + $4) : 0; l = $4 > 0 ? 100 * $5 / $4 : 0
		printf "| %d | %.1f | %s | %s | %d | %s | %.0f %% | %.0f %% |\n", NR, $1, ($2 == "-" ? "-" : sprintf("%.1f", $2)),
			($6 == "-" ? "-" : sprintf("%.1f", $6)), $7, ($8 == "samples" ? "in place" : "calibrated"), w, l }' cs.runs
	echo
	worst=$(python3 - "$RUNS" perf.self <<'EOF'
import json, sys
runs, perf_path = int(sys.argv[1]), sys.argv[2]
perf, total = {}, 0
for line in open(perf_path):
    sym, n = line.rsplit(None, 1)
    if sym == "TOTAL":
        total = int(n)
    else:
        perf[sym] = int(n)
# the report's own word on each self time: in how many runs it marked it
# as one it cannot vouch for (docs/report.md, "doubtful")
cs, cst, doubted = {}, 0, {}
for r in range(runs):
    for f in json.load(open("cs%d.json" % r))["functions"]:
        cs[f["name"]] = cs.get(f["name"], 0) + f["self_ns"]
        cst += f["self_ns"]
        doubted[f["name"]] = doubted.get(f["name"], 0) + bool(f.get("self_time_doubtful"))
worst = worst_vouched = 0
print("| function | perf self % (plain) | callscope self % (trace, -pg) | difference | marked doubtful |", file=sys.stderr)
print("| --- | ---: | ---: | ---: | ---: |", file=sys.stderr)
for s in sorted(perf, key=perf.get, reverse=True)[:10]:
    p = 100.0 * perf[s] / total if total else 0
    c = 100.0 * cs.get(s, 0) / cst if cst else 0
    worst = max(worst, abs(c - p))
    if doubted.get(s, 0) * 2 <= runs:
        worst_vouched = max(worst_vouched, abs(c - p))
    print("| %s | %.1f | %.1f | %+.1f | %d of %d |" % (s, p, c, c - p, doubted.get(s, 0), runs),
          file=sys.stderr)
print("", file=sys.stderr)
print("perf: %d samples; largest difference %.1f points, %.1f among the self times not marked doubtful in most runs"
      % (total, worst, worst_vouched), file=sys.stderr)
print("%.1f" % worst)
EOF
	)
	worst_all=$(awk -v a="$worst_all" -v b="$worst" 'BEGIN { print (b > a ? b : a) }')
	rm -f perf*.data
done 2>&1
echo
echo "Largest difference over the three programs: $worst_all points (budget $BUDGET);" \
	"load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
