#!/usr/bin/env bash
# bench/stacks-real.sh — whole sampled stacks of programs without frame
# pointers: callscope's default (the call frame information followed in the
# signal handler) against its --stack=dwarf (an 8 KB copy of the stack,
# unwound offline) and perf's --call-graph=dwarf at 8 KB and at 65528
# bytes (the most perf copies).  Programs: Debian's own stripped
# /usr/bin/bzip2 and /usr/bin/xz, and both built from Debian's source with
# -O2 -g (no frame pointers).
#
# Per program and method: the samples, how many stacks do not reach the
# thread's first frame (callscope's truncated count; for perf, whose report
# says no such thing, and for callscope alike, the share of samples whose
# stack misses __libc_start_call_main, main's caller), the bytes per
# sample in the recording, and the CPU (user + sys, of the profiler and
# the program) against the program run alone: the median ratio of ROUNDS
# interleaved rounds, every method of a round side by side.  Then perf's
# top functions by share with callees (--children at 65528 bytes, the
# reference) beside callscope's total %.  Prints Markdown.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-stacks-real), CALLSCOPE,
# SRC (the unpacked Debian sources, bzip2-* and xz-utils-*; default
# /work/scratch/src), ROUNDS (default 3), MB (input size, default 8).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-stacks-real}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
SRC=${SRC:-/work/scratch/src}
ROUNDS=${ROUNDS:-3}
MB=${MB:-8}
CFLAGS_DISTRO="-O2 -g"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"

# --- the programs built from source, once --------------------------------
# shellcheck source=bench/build_real.sh
. "$HERE/build_real.sh"
build_xz() {
	[ -x xzsrc/src/xz/xz ] && return
	rm -rf xzsrc && cp -r "$(ls -d "$SRC"/xz-utils-*/ | head -1)" xzsrc
	(cd xzsrc && ./configure --disable-shared --disable-nls --disable-doc \
		--disable-scripts --disable-xzdec --disable-lzmadec --disable-lzmainfo \
		CFLAGS="$CFLAGS_DISTRO" > configure.log 2>&1 && make -j2 > make.log 2>&1)
}
build_bzip2
build_xz

# text with some repetition, the same every run
[ -s text.txt ] || awk -v mb="$MB" 'BEGIN { srand(7);
	split("the of and to in is was that for it with as his on be at by had", w, " ");
	while (size < mb * 1000000) { line = ""; for (k = 0; k < 8; k++)
		line = line w[int(rand() * 18) + 1] int(rand() * 50) " "; print line; size += length(line) + 1 } }' \
	> text.txt

# name|command
programs=(
	"Debian's /usr/bin/bzip2 -9 (stripped)|/usr/bin/bzip2 -9 -c text.txt"
	"Debian's /usr/bin/xz -6 (stripped, liblzma shared)|/usr/bin/xz -6 -T1 -c text.txt"
	"bzip2 -9 built from source|bzip2src/bzip2 -9 -c text.txt"
	"xz -6 built from source|xzsrc/src/xz/xz -6 -T1 -c text.txt"
)
methods=(none auto dwarf perf8k perf64k)
label() {
	case $1 in
	auto) echo "callscope (default: call frame information in the handler)" ;;
	dwarf) echo "callscope --stack=dwarf (8 KB copy)" ;;
	perf8k) echo "perf --call-graph=dwarf,8192" ;;
	perf64k) echo "perf --call-graph=dwarf,65528" ;;
	esac
}

# run METHOD COMMAND...: the command under METHOD, its CPU (user + sys of
# every process) appended to cpu.METHOD
run() {
	local m=$1
	shift
	local prefix=()
	case $m in
	auto) prefix=("$CALLSCOPE" record -o auto.data --) ;;
	dwarf) prefix=("$CALLSCOPE" record --stack=dwarf -o dwarf.data --) ;;
	perf8k) prefix=(perf record -q -e task-clock -F 999 --all-user --call-graph=dwarf,8192 -o perf8k.data --) ;;
	perf64k) prefix=(perf record -q -e task-clock -F 999 --all-user --call-graph=dwarf,65528 -o perf64k.data --) ;;
	esac
	/usr/bin/time -f "%U %S" -o time.out "${prefix[@]}" "$@" > /dev/null 2> run.err
	awk '{ print $1 + $2 }' time.out >> "cpu.$m"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# perf's shares with callees (--children) of the program's process, as
# "name share" lines, largest first; perf's "(inlined)" entries and the
# addresses it could not name are left out
perf_children() {
	perf report -i "$1" --stdio --children --comms "$2" --sort sym -F overhead_children,sym \
		-g none 2> /dev/null |
		awk '/^ +[0-9.]+%/ && $NF != "(inlined)" && $NF !~ /^0x/ { gsub("%", "", $1); print $NF, $1 }' |
		sort -k2,2 -gr
}
perf_samples() {
	perf report -i "$1" --stats 2> /dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}
# callscope's total % of the function perf names F: a symbol version
# (__libc_start_main@@GLIBC_2.34) is not part of perf's name, and perf names
# glibc's implementation behind it (__libc_start_main_impl)
cs_total() {
	jq -r --arg f "$2" '[.functions[] | (.name | sub("@.*"; "")) as $n
		| select($n == $f or $n == ($f | sub("_impl$"; ""))) | .total_pct] | add // 0' "$1"
}

echo "# Whole stacks without frame pointers: callscope against perf (bench/stacks-real.sh)"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -r); perf $(perf version 2>/dev/null | awk '{ print $3 }');"
echo "input: ${MB} MB of generated text; $ROUNDS interleaved rounds, CPU = user + sys of"
echo "the profiler and the program, median ratio to the program run alone."
echo "Load: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at the start."
for entry in "${programs[@]}"; do
	name=${entry%%|*}
	cmd=${entry#*|}
	comm=$(basename "${cmd%% *}")
	rm -f cpu.*
	for _ in $(seq "$ROUNDS"); do
		for m in "${methods[@]}"; do
			run "$m" $cmd
		done
	done
	base=$(median < cpu.none)
	"$CALLSCOPE" report -i auto.data --json > auto.json
	"$CALLSCOPE" report -i dwarf.data --json > dwarf.json
	perf_children perf64k.data "$comm" > ref.txt
	perf_children perf8k.data "$comm" > p8k.txt
	echo
	echo "## $name"
	echo
	echo "\`$cmd\`: alone $(printf '%.2f' "$base") s of CPU (median)."
	echo
	echo "| method | samples | truncated | missing main's caller | bytes per sample | CPU against alone |"
	echo "| --- | --- | --- | --- | --- | --- |"
	for m in auto dwarf perf8k perf64k; do
		ratio=$(median < "cpu.$m" | awk -v b="$base" '{ printf "%.3f", $1 / b }')
		size=$(stat -c %s "$m.data")
		case $m in
		auto | dwarf)
			n=$(jq .samples "$m.json")
			t=$(jq .truncated_stacks "$m.json")
			truncated=$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%d (%.1f %%)", t, 100 * t / n }')
			reach=$(cs_total "$m.json" __libc_start_call_main) ;;
		perf8k | perf64k)
			n=$(perf_samples "$m.data")
			truncated="(not reported)"
			f=ref.txt
			[ $m = perf8k ] && f=p8k.txt
			reach=$(awk '$1 == "__libc_start_call_main" { print $2; exit }' $f) ;;
		esac
		missing=$(awk -v r="${reach:-0}" 'BEGIN { printf "%.1f %%", 100 - r }')
		printf "| %s | %s | %s | %s | %d | %s |\n" "$(label $m)" "$n" "$truncated" "$missing" \
			$((size / n)) "$ratio"
	done
	echo
	echo "Shares with callees (total %) of perf's top ten at 65528 bytes:"
	echo
	echo "| function | perf 65528 | perf 8192 | callscope default | callscope --stack=dwarf |"
	echo "| --- | --- | --- | --- | --- |"
	head -10 ref.txt | while read -r fn p; do
		p8=$(awk -v f="$fn" '$1 == f { print $2; exit }' p8k.txt)
		printf "| %s | %.2f | %.2f | %.2f | %.2f |\n" "$fn" "$p" "${p8:-0}" \
			"$(cs_total auto.json "$fn")" "$(cs_total dwarf.json "$fn")"
	done
done
