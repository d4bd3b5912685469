#!/usr/bin/env bash
# bench/sampling-real.sh — callscope's sampled profile against perf's on
# real programs built as distributions build them (-O2 -g, no frame
# pointers): lua 5.4 running a script, bzip2 -9 and zstd -12 compressing
# generated text, and GNU troff (C++, from groff's source when SRC has it)
# typesetting manual pages.  Each program runs once, under `callscope record` (its
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
# The same run cannot show what recording does to the program itself
# (a thread of callscope's in a single-threaded program once put every
# putc through its stream's lock: troff's putc took 12 % of the samples
# of both).  So perf also samples the program run alone, and the self
# table shows its shares beside, with the difference; those carry the
# runs' own variation too (lua's hash seed), and only count apart.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-sampling-real), CALLSCOPE,
# SRC (the unpacked Debian sources: lua5.4-*, bzip2-*, libzstd-*, and
# groff-* for troff, which needs bison; default /work/scratch/src), SCALE (work factor, default 1: runs of 5-10 s here,
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
if ls -d "$SRC"/groff-*/ > /dev/null 2>&1; then
	build_groff
	for _ in 1 2 3 4 5 6 7 8 9 10; do cat groff/manpages.txt; done > pages10.txt
fi

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
[ -x groff/troff ] && programs+=(
	"troff (groff 1.22.4: its own manual pages, ten times, to UTF-8 text)|groff/troff -Tutf8 -Wall -man -Mgroff/tmac -Fgroff/font pages10.txt"
)

# perf's report as "name<TAB>share" lines, largest first: self
# (--no-children) or with callees (--children).  perf names C++ functions
# without their parameters, and a clone (.part.0, .constprop.0) as the
# function: one name's self shares add up, its shares with callees do not
# (one may hold the other), the largest stands for them.
perf_all() {
	local field=overhead
	[ "$2" = --children ] && field=overhead_children
	perf report -i "$1" --stdio "$2" --comms "$3" --sort sym -F $field,sym -g none 2> /dev/null |
		awk -v add="$([ "$2" = --children ] || echo 1)" '/^ +[0-9.]+%/ {
			share = $1; gsub("%", "", share); name = $0; sub(/^[^[]*\[.\] /, "", name)
			sub(/ +$/, "", name)
			if (name ~ / \(inlined\)$/ || name ~ /^0x/) next
			if (add) got[name] += share; else if (share > got[name]) got[name] = share
		} END { for (n in got) print n "\t" got[n] }' | sort -t "$(printf '\t')" -k2,2 -gr
}

# jq: a name as perf gives it, from callscope's: a C++ function's without
# its parameter list (and "const") or clone suffix
# shellcheck disable=SC2016
PERF_NAME='def perf_name:
	sub("( \\[clone [^]]*\\])+$"; "") | sub(" const$"; "")
	| if endswith(")") then
		(explode) as $c
		| (reduce range(($c | length) - 1; -1; -1) as $i ({ d: 0, at: null };
			if .at != null then .
			elif $c[$i] == 41 then .d += 1
			elif $c[$i] == 40 then (.d -= 1 | if .d == 0 then .at = $i else . end)
			else . end)) as $r
		| if ($r.at // 0) > 0 then .[:$r.at] else . end
	else . end;'


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
apart=0
for entry in "${programs[@]}"; do
	name=${entry%%|*}
	cmd=${entry#*|}
	comm=$(basename "${cmd%% *}")
	perf record -q -e cpu-clock -F 999 --call-graph=dwarf --all-user -o p.data -- \
		"$CALLSCOPE" record -o cs.data -- $cmd > /dev/null 2> cs.err
	# shellcheck disable=SC2086
	perf record -q -e cpu-clock -F 999 --call-graph=dwarf --all-user -o alone.data -- \
		$cmd > /dev/null 2>&1
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
	perf_all alone.data --no-children "$comm" > alone.self
	# self: perf's top ten by self share; total: its top ten with
	# callees; callers: the self top ten's shares with callees, which
	# agree only where the callers were found as perf finds them
	for kind in self total callers; do
		case $kind in
		self) head -10 perf.self > perf.top; field=self_pct ;;
		total) head -10 perf.total > perf.top; field=total_pct ;;
		callers) head -10 perf.self | while IFS="$(printf '\t')" read -r fn _; do
				awk -F '\t' -v f="$fn" '$1 == f { print; exit }' perf.total
			 done > perf.top; field=total_pct ;;
		esac
		echo
		[ $kind = callers ] && echo "The self top ten's shares with their callees:" && echo
		if [ $kind = self ]; then
			echo "| function | perf self % | callscope self % | difference | verdict | perf self %, run alone | difference |"
			echo "| --- | --- | --- | --- | --- | --- | --- |"
		else
			echo "| function | perf ${kind/callers/total} % | callscope ${kind/callers/total} % | difference | verdict |"
			echo "| --- | --- | --- | --- | --- |"
		fi
		while IFS="$(printf '\t')" read -r fn p; do
			# a symbol version (__libc_start_main@@GLIBC_2.34) is not
			# part of perf's name; a PLT stub's @plt is; another name
			# of the same function is the same function
			c=$(jq -r --arg f "$fn" --arg k $field --slurpfile al aliases.json "$PERF_NAME"'
				$al[0] as $a | ($a[$f] // $f) as $key | [.functions[]
				| select((.name | if endswith("@plt") then . else sub("@.*"; "") end
					  | perf_name) | ($a[.] // .) == $key)
				| .[$k]] | if $k == "total_pct" then max else add end // 0' cs.json)
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
			if [ $kind = self ]; then
				a=$(awk -F '\t' -v f="$fn" '$1 == f { print $2; exit }' alone.self)
				da=$(echo "$c - ${a:-0}" | bc -l | xargs printf "%+.2f")
				awk -v d="$da" -v b=$BUDGET 'BEGIN { exit !((d < 0 ? -d : d) > b) }' &&
					apart=$((apart + 1))
				printf "| %s | %.2f | %.2f | %s | %s | %.2f | %s |\n" "$fn" "$p" "$c" "$d" "$v" \
					"${a:-0}" "$da"
			else
				printf "| %s | %.2f | %.2f | %s | %s |\n" "$fn" "$p" "$c" "$d" "$v"
			fi
		done < perf.top
	done
done
echo
echo "Functions outside the ±$BUDGET-point budget: $fails; shares with callees above" \
	"perf's by more than $BUDGET points, where perf's unwinding stopped short: $more;" \
	"self shares more than $BUDGET points from perf's on the program run alone: $apart."
