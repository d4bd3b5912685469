#!/usr/bin/env bash
# bench/plt-real.sh — the samples real programs spend in PLT stubs, named
# by callscope beside perf's names for them.  lua 5.4, bzip2, zstd and jq
# are built as distributions build them (-O2 -g) from Debian's source;
# each runs once, under `callscope record` under `perf record -e cpu-clock
# -F 999 --all-user`, so both sample the very same run.  For every stub
# either tool names in the program's process (the program's and its
# libraries'), perf's self share beside callscope's; then the samples each
# left without a name in a stub or in the program (perf's "@plt" and
# "0x..." entries, callscope's "OBJECT+0x..."), and the stubs' whole share.
# Prints Markdown.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-plt-real), CALLSCOPE,
# SRC (the unpacked Debian sources: lua5.4-*, bzip2-*, libzstd-*, jq-*;
# default /work/scratch/src), SCALE (work factor, default 1: runs of 1-5 s).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-plt-real}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
SRC=${SRC:-/work/scratch/src}
SCALE=${SCALE:-1}
CFLAGS_DISTRO="-O2 -g"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"

# shellcheck source=bench/build_real.sh
. "$HERE/build_real.sh"
build_lua
build_bzip2
build_zstd
build_jq

# --- the inputs, the same every run --------------------------------------
cat > work.lua <<'LUA'
local scale = tonumber(arg[1]) or 1
local words = {}
for i = 1, 15000 * scale do words[i] = string.format("w%05d", (i * 7919) % 100003) end
table.sort(words)
local parts = {}
for i = 1, 20000 * scale do parts[#parts + 1] = tostring(i % 977) end
print(#table.concat(parts, ","))
LUA
write_text text.txt 200000
[ -s in.json ] || jq/jq -nc '[range(200000) | {id: ., name: "item \(. * 7919 % 10007)",
	tags: [range(. % 5) | "t\(.)"], score: (. % 17 - 8)}]' > in.json
filter='map(select(.score > 0) | {n: .name, t: (.tags | join(","))}) | length'

# name|command
programs=(
	"lua 5.4 (sort, string building)|lua/lua work.lua $((60 * SCALE))"
	"bzip2 -9|bzip2src/bzip2 -9 -c text.txt"
	"zstd -9|zstd/programs/zstd -9 -q -c text.txt"
	"jq (select, join over 200000 records)|jq/jq -c $filter in.json"
)

echo "# PLT stubs in sampled profiles: callscope against perf"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) cores; perf $(perf version 2>/dev/null | awk '{ print $3 }');"
echo "each program built with \`$CFLAGS_DISTRO\` from Debian's source; both at 999 Hz"
echo "of user-space CPU time, sampling the same run."
for entry in "${programs[@]}"; do
	name=${entry%%|*}
	cmd=${entry#*|}
	comm=$(basename "${cmd%% *}")
	# the filter holds spaces: the command is split by hand
	if [ "$comm" = jq ]; then
		run=(jq/jq -c "$filter" in.json)
	else
		read -r -a run <<< "$cmd"
	fi
	perf record -q -e cpu-clock -F 999 --all-user -o p.data -- \
		"$CALLSCOPE" record -o cs.data -- "${run[@]}" > /dev/null 2> cs.err
	# "OBJECT NAME SHARE" lines, self shares
	perf report -i p.data --stdio --no-children --comms "$comm" --sort dso,sym \
		2> /dev/null | awk '/^ +[0-9.]+%/ { gsub("%", "", $1); print $2, $NF, $1 }' > perf.all
	"$CALLSCOPE" report -i cs.data --json > cs.json
	jq -r '.functions[] | select(.self_samples > 0)
		| "\(.object // "-" | sub(".*/"; "")) \(.name) \(.self_pct)"' cs.json > cs.all
	perf_samples=$(perf script -i p.data -F comm 2> /dev/null | awk -v c="$comm" '$1 == c' | wc -l)
	echo
	echo "## $name"
	echo
	echo "\`$cmd\`: callscope $(jq .samples cs.json) samples, perf $perf_samples."
	echo
	echo "| object | stub | perf self % | callscope self % |"
	echo "| --- | --- | --- | --- |"
	awk 'FILENAME == "perf.all" { k = $1 " " $2; p[k] += $3; keys[k] = 1; next }
		{ k = $1 " " $2; c[k] += $3; keys[k] = 1 }
		END { for (k in keys) if (k ~ / [^ ]+@plt$/) {
			split(k, w, " "); printf "| %s | %s | %.2f | %.2f |\n", w[1], w[2], p[k], c[k] } }' \
		perf.all cs.all | sort -t'|' -k4,4gr
	stubs_perf=$(awk '$2 ~ /.@plt$/ { s += $3 } END { printf "%.2f", s }' perf.all)
	stubs_cs=$(awk '$2 ~ /.@plt$/ { s += $3 } END { printf "%.2f", s }' cs.all)
	unnamed_perf=$(awk '$2 == "@plt" || $2 ~ /^0x/ { s += $3 } END { printf "%.2f", s }' perf.all)
	unnamed_cs=$(awk '$2 ~ /[+]0x[0-9a-f]+$/ { s += $3 } END { printf "%.2f", s }' cs.all)
	echo
	echo "Named stubs: perf $stubs_perf %, callscope $stubs_cs % of the samples." \
		"Left unnamed: perf $unnamed_perf % (\`@plt\`, \`0x...\`), callscope $unnamed_cs % (\`OBJECT+0x...\`)."
done
