#!/usr/bin/env bash
# bench/merge.sh — merging many runs as sums, against the budget:
# 1 000 recordings of a real program merged in under 10 s, with memory that
# does not grow with the number of runs; the same for diff of two sums.
#
# The program is Debian's Lua 5.4 interpreter (the source bench/setup.sh
# unpacks), built with -pg and recorded RUNS times in count mode
# (record --mode=count) on bench/progs/work.lua with inputs that vary from
# run to run.  Then, each timed with GNU time (elapsed s, peak RSS):
#   merge of 10, 100 and RUNS recordings (the sum's size and the memory
#     should stay flat), a tree of merges (RUNS in parts of 100, then the
#     parts) compared byte for byte with the one-shot sum,
#   diff of two sums of 10 runs and of two sums of RUNS runs each (the
#     second set recorded with work.lua's N one higher, so the sums differ),
#   merge --keep-events of 10 and 100 recordings, the old concatenation,
#     for comparison.
#
#   bench/merge.sh            prints a Markdown table (copy in $BENCH_DIR)
#
# Knobs (environment): BENCH_DIR (default /tmp/callscope-bench; recordings
# go to $BENCH_DIR/merge), CALLSCOPE (the CLI), RUNS (default 1000),
# LUA_ARGS_BASE (fib N of work.lua, default 18; each run adds 0-3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
CALLSCOPE=${CALLSCOPE:-$root/build/callscope}
RUNS=${RUNS:-1000}
LUA_ARGS_BASE=${LUA_ARGS_BASE:-18}
work=$BENCH_DIR/merge
say() { echo "merge.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# shellcheck source=bench/build_lua.sh
. "$here/build_lua.sh"
lua_src=$(lua_source_dir) || exit 1
[ -x "$CALLSCOPE" ] || die "no callscope at '$CALLSCOPE'; run make"
[ -x /usr/bin/time ] || die "GNU time is needed (apt-get install time)"
mkdir -p "$work/runs" "$work/lua-include"

# Lua as run.sh builds it: the interpreter's own C files, -pg.
lua=$work/lua-pg
if [ ! -x "$lua" ]; then
	say "building $lua"
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch || echo x86_64-linux-gnu)" \
		>"$work/lua-include/lua5.4-deb-multiarch.h"
	srcs=()
	for f in "$lua_src"/*.c; do [ "${f##*/}" = luac.c ] || srcs+=("$f"); done
	gcc -std=gnu99 -O2 -g -pg -I"$work/lua-include" -DLUA_COMPAT_5_3 -DLUA_USE_LINUX \
		-o "$lua" "${srcs[@]}" -lm -ldl
fi

# record_set DIR N_SHIFT: RUNS count-mode runs into DIR, once.
record_set() {
	local dir=$1 shift_n=$2 n_have start f i
	mkdir -p "$dir"
	n_have=$(find "$dir" -name 'run-*.data' | wc -l)
	[ "$n_have" -lt "$RUNS" ] || return 0
	say "recording $RUNS runs in count mode (once; kept in $dir)"
	start=$(date +%s)
	for ((i = n_have; i < RUNS; i++)); do
		f=$(printf '%s/run-%04d.data' "$dir" "$i")
		"$CALLSCOPE" record --mode=count -o "$f" -- \
			"$lua" "$here/progs/work.lua" $((LUA_ARGS_BASE + shift_n + i % 4)) 1 >/dev/null 2>&1 ||
			die "recording run $i failed"
	done
	say "recorded in $(($(date +%s) - start)) s"
}
record_set "$work/runs" 0
record_set "$work/runs-b" 1
mapfile -t runs < <(find "$work/runs" -name 'run-*.data' | sort | head -n "$RUNS")
mapfile -t runs_b < <(find "$work/runs-b" -name 'run-*.data' | sort | head -n "$RUNS")

# timed NAME CMD...: one table row: elapsed seconds and peak RSS in MiB.
timed() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" ||
		{ cat "$work/stderr.txt" >&2; die "$name failed"; }
	read -r secs kib <"$work/time.txt"
	printf '| %s | %s | %.1f |' "$name" "$secs" "$(echo "$kib / 1024" | bc -l)"
}
size_of() { printf ' %s |\n' "$(du -b "$1" | cut -f1)"; }

{
	echo "## merge as sums: $RUNS count-mode runs of Lua 5.4 (work.lua $LUA_ARGS_BASE..$((LUA_ARGS_BASE + 3)) 1)"
	echo
	echo "one recording: $(du -b "${runs[0]}" | cut -f1) bytes;" \
		"all $RUNS: $(du -cb "${runs[@]}" | tail -1 | cut -f1) bytes"
	echo
	echo "| what | elapsed (s) | peak RSS (MiB) | output (bytes) |"
	echo "| --- | --- | --- | --- |"
	for n in 10 100 "$RUNS"; do
		timed "merge $n runs" "$CALLSCOPE" merge -o "$work/sum-$n.data" "${runs[@]:0:n}"
		size_of "$work/sum-$n.data"
	done
	rm -f "$work"/part-*.data
	parts=()
	for ((i = 0; i < RUNS; i += 100)); do
		parts+=("$work/part-$i.data")
		"$CALLSCOPE" merge -o "$work/part-$i.data" "${runs[@]:i:100}" 2>/dev/null
	done
	timed "merge of $((${#parts[@]})) partial sums (newest first)" "$CALLSCOPE" merge \
		-o "$work/sum-tree.data" $(printf '%s\n' "${parts[@]}" | sort -r)
	size_of "$work/sum-tree.data"
	for n in 10 "$RUNS"; do
		"$CALLSCOPE" merge -o "$work/sum-b-$n.data" "${runs_b[@]:0:n}" 2>/dev/null
		timed "diff of two sums of $n runs" "$CALLSCOPE" diff "$work/sum-$n.data" \
			"$work/sum-b-$n.data"
		echo " - |"
	done
	timed "diff --json of two sums of $RUNS runs" "$CALLSCOPE" diff --json "$work/sum-$RUNS.data" \
		"$work/sum-b-$RUNS.data"
	echo " - |"
	for n in 10 100; do
		timed "merge --keep-events $n runs" "$CALLSCOPE" merge --keep-events \
			-o "$work/kept-$n.data" "${runs[@]:0:n}"
		size_of "$work/kept-$n.data"
	done
	echo
	if cmp -s "$work/sum-$RUNS.data" "$work/sum-tree.data"; then
		echo "The tree of merges wrote the same bytes as the one-shot merge of $RUNS runs."
	else
		echo "**The tree of merges differs from the one-shot merge.**"
	fi
	echo
	echo "calls in the sum of $RUNS runs: $("$CALLSCOPE" info -i "$work/sum-$RUNS.data" --json |
		jq .calls); runs: $("$CALLSCOPE" info -i "$work/sum-$RUNS.data" --json | jq .sum.runs)"
} | tee "$work/results.md"
