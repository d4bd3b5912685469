#!/usr/bin/env bash
# bench/sampling-real.sh — callscope's sampled profile against perf's on
# real programs built as distributions build them (-O2 -g, no frame
# pointers): lua 5.4 running a script, bzip2 -9 and zstd -12 compressing
# generated text.  Each program runs once, under `callscope record` (its
# default stacks) under `perf record -e cpu-clock -F 999
# --call-graph=dwarf --all-user`: both sample the very same run, so what
# differs is sampling error alone, not the run (lua seeds its string hash
# from addresses and the time, so its hash-table code takes a different
# share in every run).  Then perf's top ten functions of the program's
# process by self share (`perf report --no-children`) and by share with
# callees (`--children`, which shows whether callers were found) beside
# callscope's.  Prints Markdown; the budget is 2 points.  perf's
# "(inlined)" pseudo-entries and the addresses it could not name (0x...)
# are left out: they are no function to compare.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-sampling-real), CALLSCOPE,
# SRC (the unpacked Debian sources: lua5.4-*, bzip2-*, libzstd-*; default
# /work/scratch/src), SCALE (work factor, default 1: runs of 5-10 s here,
# so that perf's and callscope's shares, each off by sampling error, still
# differ by well under a point).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-sampling-real}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
SRC=${SRC:-/work/scratch/src}
SCALE=${SCALE:-1}
BUDGET=2
CFLAGS_DISTRO="-O2 -g"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"

# --- the programs, each built once from a copy of its source ------------
# shellcheck source=bench/build_real.sh
. "$HERE/build_real.sh"
build_lua
build_bzip2
build_zstd

# --- the inputs ---------------------------------------------------------
cat > work.lua <<'LUA'
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local scale = tonumber(arg[1]) or 1
local words = {}
for i = 1, 15000 * scale do words[i] = string.format("w%05d", (i * 7919) % 100003) end
table.sort(words)
local counts = {}
for _, w in ipairs(words) do local k = w:sub(1, 3) counts[k] = (counts[k] or 0) + 1 end
local s = 0
for i = 1, scale do s = s + fib(22) end
local parts = {}
for i = 1, 20000 * scale do parts[#parts + 1] = tostring(i % 977) end
print(s, #table.concat(parts, ","))
LUA
write_text text.txt 600000

[ -s text3.txt ] || cat text.txt text.txt text.txt > text3.txt

# name|command: each runs 5-10 s here
programs=(
	"lua 5.4 (script: sort, string building, recursion)|lua/lua work.lua $((400 * SCALE))"
	"bzip2 -9|bzip2src/bzip2 -9 -c text3.txt"
	"zstd -12|zstd/programs/zstd -12 -q -c text3.txt"
)

# perf's report as "name share" lines, the ten largest: self
# (--no-children) or with callees (--children)
perf_all() {
	local field=overhead
	[ "$2" = --children ] && field=overhead_children
	perf report -i "$1" --stdio "$2" --comms "$3" --sort sym -F $field,sym -g none 2> /dev/null |
		awk '/^ +[0-9.]+%/ && $NF != "(inlined)" && $NF !~ /^0x/ { gsub("%", "", $1); print $NF, $1 }' |
		sort -k2,2 -gr
}

# aliases.json from cs.json: every function name of the objects callscope
# named, mapped to its object and address, so that two names of one
# function (glibc's __strcoll_l and strcoll_l: perf prefers the global
# name, callscope the public one) compare as the same function
alias_map() {
	jq -r '[.functions[].object] | unique | .[]' cs.json | while read -r obj; do
		[ -f "$obj" ] || continue
		readelf -Ws "$obj" 2> /dev/null | awk -v o="$obj" '
			($4 == "FUNC" || $4 == "IFUNC") && $7 != "UND" && $8 != "" {
				n = $8; sub(/@.*/, "", n); print n, o ":" $2 }'
	done | jq -R -n '[inputs | split(" ") | { (.[0]): .[1] }] | add // {}' > aliases.json
}

echo "# Sampled profiles of real programs: callscope against perf"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) cores; perf $(perf version 2>/dev/null | awk '{ print $3 }');"
echo "each program built with \`$CFLAGS_DISTRO\` (no frame pointers) from Debian's source."
echo "Both at 999 Hz of user-space CPU time; perf with \`--call-graph=dwarf\`,"
echo "callscope with its default stacks."
fails=0
more=0
for entry in "${programs[@]}"; do
	name=${entry%%|*}
	cmd=${entry#*|}
	comm=$(basename "${cmd%% *}")
	perf record -q -e cpu-clock -F 999 --call-graph=dwarf --all-user -o p.data -- \
		"$CALLSCOPE" record -o cs.data -- $cmd > /dev/null 2> cs.err
	"$CALLSCOPE" report -i cs.data --json > cs.json
	alias_map
	samples=$(jq .samples cs.json)
	method=$(jq -r .stack_method cs.json)
	truncated=$(jq .truncated_stacks cs.json)
	echo
	echo "## $name"
	echo
	echo "\`$cmd\`: callscope $samples samples, stacks by $method, $truncated truncated."
	perf_all p.data --no-children "$comm" > perf.self
	perf_all p.data --children "$comm" > perf.total
	# self: perf's top ten by self share; total: its top ten with
	# callees; callers: the self top ten's shares with callees, which
	# agree only where the callers were found as perf finds them
	for kind in self total callers; do
		case $kind in
		self) head -10 perf.self > perf.top; field=self_pct ;;
		total) head -10 perf.total > perf.top; field=total_pct ;;
		callers) head -10 perf.self | while read -r fn _; do
				awk -v f="$fn" '$1 == f { print; exit }' perf.total
			 done > perf.top; field=total_pct ;;
		esac
		echo
		[ $kind = callers ] && echo "The self top ten's shares with their callees:" && echo
		echo "| function | perf ${kind/callers/total} % | callscope ${kind/callers/total} % | difference | verdict |"
		echo "| --- | --- | --- | --- | --- |"
		while read -r fn p; do
			# a symbol version (__libc_start_main@@GLIBC_2.34) is not
			# part of perf's name; a PLT stub's @plt is; another name
			# of the same function is the same function
			c=$(jq -r --arg f "$fn" --arg k $field --slurpfile al aliases.json '
				$al[0] as $a | ($a[$f] // $f) as $key | [.functions[]
				| select((.name | if endswith("@plt") then . else sub("@.*"; "") end)
					 | ($a[.] // .) == $key)
				| .[$k]] | add // 0' cs.json)
			d=$(echo "$c - $p" | bc -l | xargs printf "%+.2f")
			# a share with callees above perf's means perf's unwinding
			# stopped short of callers that callscope found: the budget
			# asks for callers wherever perf finds them
			v=$(awk -v d="$d" -v b=$BUDGET -v k=$kind 'BEGIN {
				if ((d < 0 ? -d : d) <= b) print "PASS";
				else if (k != "self" && d > 0) print "PASS (perf found fewer callers)";
				else print "FAIL" }')
			case $v in PASS*) ;; *) fails=$((fails + 1)) ;; esac
			case $v in *fewer*) more=$((more + 1)) ;; esac
			printf "| %s | %.2f | %.2f | %s | %s |\n" "$fn" "$p" "$c" "$d" "$v"
		done < perf.top
	done
done
echo
echo "Functions outside the ±$BUDGET-point budget: $fails; shares with callees above" \
	"perf's by more than $BUDGET points, where perf's unwinding stopped short: $more."
