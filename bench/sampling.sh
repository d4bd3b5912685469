#!/usr/bin/env bash
# bench/sampling.sh — the sampler against its peers on one workload
# (bench/progs/sample_mix.c, about 0.5 s of CPU): the CPU and wall time added by
# `callscope record` (its default stacks, --stack=fp and --stack=dwarf; on
# the program built with frame pointers and without), `perf record -F 999
# -g` and gperftools' CPU profiler against a plain run, the floor any
# in-process sampler pays here (bench/progs/sample_floor.c: the kernel's
# sampling timer, and its signal, with no sample taken), and the agreement
# of callscope's top-10 self shares with perf's.  Prints Markdown.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-sampling), CALLSCOPE,
# REPEAT (runs per measurement, the median is kept; default 7), ROUNDS
# (the overhead run; default: what takes 0.5 s here), AGREE_ROUNDS (the run whose shares are
# compared with perf's: long enough that sampling error stays well under
# the budget; default ten times ROUNDS, about 5 000 samples).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-sampling}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
REPEAT=${REPEAT:-7}
ROUNDS=${ROUNDS:-}
BUDGET_OVERHEAD=3	# percent of a plain run, at 999 Hz
BUDGET_AGREE=2		# percentage points per function against perf

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
cc -O2 -g -fno-omit-frame-pointer -o mix "$HERE/progs/sample_mix.c"
cc -O2 -g -fomit-frame-pointer -o mix-nofp "$HERE/progs/sample_mix.c"

cc -O2 -o empty -x c - <<< 'int main(void) { return 0; }'
cc -O2 -shared -fPIC -o floor.so "$HERE/progs/sample_floor.c"
gp=/usr/lib/x86_64-linux-gnu/libprofiler.so
have_gp=0
[ -e "$gp" ] && have_gp=1
have_perf=0
if command -v perf > /dev/null && perf record -e cpu-clock -F 999 -g -o p.data -- true > /dev/null 2>&1; then
	have_perf=1
fi

# once NAME CMD...: one run of CMD, its wall seconds and CPU seconds
# (perf stat's task-clock of every process of the run, the launcher's
# included: on a machine that other jobs share, CPU time moves much less
# than wall time) appended to runs.txt as "NAME WALL CPU"
once() {
	local name=$1 s e
	shift
	s=$(date +%s.%N)
	perf stat -x, -e task-clock -o stat.out -- "$@" > /dev/null 2>&1
	e=$(date +%s.%N)
	echo "$name $(echo "$e - $s" | bc -l) $(awk -F, '/task-clock/ { print $1 / 1000 }' stat.out)" >> runs.txt
}
# wall NAME, cpu NAME: the median of NAME's runs in runs.txt
median_of() {
	awk -v n="$1" -v f="$2" '$1 == n { print $f }' runs.txt | sort -n |
		awk '{ a[NR] = $1 } END { printf "%.4f\n", a[int((NR + 1) / 2)] }'
}
wall() { median_of "$1" 2; }
cpu() { median_of "$1" 3; }

# The budget is for a run of about half a second of CPU (on an idle
# machine, its wall time): unless told, scale the rounds to that from
# timed trials.  Wall time would shorten the run on a loaded machine and
# so inflate the fixed start-up's share.
if [ -z "$ROUNDS" ]; then
	: > runs.txt
	for _ in 1 2 3; do once trial ./mix 4000; done
	ROUNDS=$(echo "4000 * 0.5 / $(cpu trial)" | bc -l | xargs printf "%.0f")
fi
SHORT_ROUNDS=$((ROUNDS * 2 / 5))	# a 0.2 s program: start-up weighs more
AGREE_ROUNDS=${AGREE_ROUNDS:-$((ROUNDS * 10))}

# Every configuration once per round, REPEAT rounds: the medians compare
# runs made side by side, under the same load.
: > runs.txt
for _ in $(seq "$REPEAT"); do
	once plain ./mix "$ROUNDS"
	once cs_auto "$CALLSCOPE" record -o cs.data -- ./mix "$ROUNDS"
	once plain_nofp ./mix-nofp "$ROUNDS"
	once cs_auto_nofp "$CALLSCOPE" record -o csn.data -- ./mix-nofp "$ROUNDS"
	once cs_fp "$CALLSCOPE" record --stack=fp -o csf.data -- ./mix "$ROUNDS"
	once cs_dw "$CALLSCOPE" record --stack=dwarf -o csd.data -- ./mix "$ROUNDS"
	once cs_timer "$CALLSCOPE" record --sample-source=timer -o cst.data -- ./mix "$ROUNDS"
	once floor_timer env LD_PRELOAD=./floor.so SAMPLE_FLOOR=timer ./mix "$ROUNDS"
	once floor_signal env LD_PRELOAD=./floor.so SAMPLE_FLOOR=signal ./mix "$ROUNDS"
	once empty_plain ./empty
	once cs_empty "$CALLSCOPE" record -o e.data -- ./empty
	if [ $have_perf = 1 ]; then
		once perf_t perf record -e cpu-clock -F 999 -g -o p.data -- ./mix "$ROUNDS"
	fi
	if [ $have_gp = 1 ]; then
		once gp_t env LD_PRELOAD="$gp" CPUPROFILE=gp.prof CPUPROFILE_FREQUENCY=999 ./mix "$ROUNDS"
	fi
	once short_plain ./mix "$SHORT_ROUNDS"
	once short_cs "$CALLSCOPE" record -o css.data -- ./mix "$SHORT_ROUNDS"
	if [ $have_gp = 1 ]; then
		once short_gp env LD_PRELOAD="$gp" CPUPROFILE=gps.prof CPUPROFILE_FREQUENCY=999 ./mix "$SHORT_ROUNDS"
	fi
done
plain=$(wall plain) plain_cpu=$(cpu plain)
plain_nofp=$(wall plain_nofp) plain_nofp_cpu=$(cpu plain_nofp)
cs_auto=$(wall cs_auto) cs_auto_cpu=$(cpu cs_auto)
cs_auto_nofp=$(wall cs_auto_nofp) cs_auto_nofp_cpu=$(cpu cs_auto_nofp)
cs_fp=$(wall cs_fp) cs_fp_cpu=$(cpu cs_fp)
cs_dw=$(wall cs_dw) cs_dw_cpu=$(cpu cs_dw)
cs_timer=$(wall cs_timer) cs_timer_cpu=$(cpu cs_timer)
floor_timer=$(wall floor_timer) floor_timer_cpu=$(cpu floor_timer)
floor_signal=$(wall floor_signal) floor_signal_cpu=$(cpu floor_signal)
cs_empty=$(wall cs_empty) cs_empty_cpu=$(cpu cs_empty)
empty_cpu=$(cpu empty_plain)
[ $have_perf = 1 ] && perf_t=$(wall perf_t) perf_t_cpu=$(cpu perf_t)
[ $have_gp = 1 ] && gp_t=$(wall gp_t) gp_t_cpu=$(cpu gp_t)

pct() { echo "($1 / ${2:-$plain} - 1) * 100" | bc -l | xargs printf "%+.1f"; }
stack_method() { "$CALLSCOPE" report -i "$1" --json | jq -r .stack_method; }
verdict() { awk -v o="$1" -v b="$2" 'BEGIN { print (o <= b ? "PASS" : "FAIL") }'; }

echo "## Sampling: overhead at 999 Hz (\`mix $ROUNDS\`, about 0.5 s of CPU; medians of $REPEAT interleaved rounds, $(nproc) cores)"
echo
echo "The budget (≤ ${BUDGET_OVERHEAD} %) is judged on CPU time; wall time carries the machine's other load."
echo
echo "| run | wall s | wall overhead % | CPU s | CPU overhead % | budget ≤ ${BUDGET_OVERHEAD} % |"
echo "| --- | --- | --- | --- | --- | --- |"
# "| wall s | overhead % | CPU s | CPU overhead % | verdict |" cells of a
# run against its plain run; a fifth argument stands for the verdict
cells() {
	local o
	o=$(pct "$2" "$4")
	printf "%s | %s | %s | %s | %s" "$1" "$(pct "$1" "$3")" "$2" "$o" "${5-$(verdict "$o" $BUDGET_OVERHEAD)}"
}
echo "| plain | $plain | — | $plain_cpu | — | |"
echo "| callscope record (default stacks: $(stack_method cs.data)) | $(cells "$cs_auto" "$cs_auto_cpu" "$plain" "$plain_cpu") |"
echo "| plain, built without frame pointers | $plain_nofp | — | $plain_nofp_cpu | — | |"
echo "| callscope record, built without frame pointers (default stacks: $(stack_method csn.data)) | $(cells "$cs_auto_nofp" "$cs_auto_nofp_cpu" "$plain_nofp" "$plain_nofp_cpu") |"
echo "| callscope record --stack=fp | $(cells "$cs_fp" "$cs_fp_cpu" "$plain" "$plain_cpu") |"
echo "| callscope record --stack=dwarf | $(cells "$cs_dw" "$cs_dw_cpu" "$plain" "$plain_cpu") |"
echo "| callscope record --sample-source=timer (scheduler tick) | $(cells "$cs_timer" "$cs_timer_cpu" "$plain" "$plain_cpu") |"
echo "| floor: the task-clock event at 999 Hz alone, no signal (env, LD_PRELOAD) | $(cells "$floor_timer" "$floor_timer_cpu" "$plain" "$plain_cpu" "") |"
echo "| floor: the same event sending SIGTRAP to an empty handler | $(cells "$floor_signal" "$floor_signal_cpu" "$plain" "$plain_cpu" "") |"
[ $have_perf = 1 ] && echo "| perf record -e cpu-clock -F 999 -g | $perf_t | $(pct "$perf_t") | $perf_t_cpu | $(pct "$perf_t_cpu" "$plain_cpu") | |"
[ $have_gp = 1 ] && echo "| gperftools CPUPROFILE (999 Hz) | $gp_t | $(pct "$gp_t") | $gp_t_cpu | $(pct "$gp_t_cpu" "$plain_cpu") | |"
echo
echo "Start-up and sealing: \`callscope record\` of an empty program takes $cs_empty s of wall time and" \
	"$cs_empty_cpu s of CPU (the empty program alone: $empty_cpu s of CPU)."
echo
echo "Samples: $("$CALLSCOPE" report -i cs.data --json | jq .samples) (default), $("$CALLSCOPE" report -i cst.data --json | jq .samples) (timer)."
echo "Data size: callscope $(stat -c %s cs.data) bytes (default), $(stat -c %s csn.data) bytes" \
	"(default, no frame pointers), $(stat -c %s csf.data) bytes (fp), $(stat -c %s csd.data) bytes (dwarf)."
echo
short_plain=$(wall short_plain) short_plain_cpu=$(cpu short_plain)
short_cs=$(wall short_cs) short_cs_cpu=$(cpu short_cs)
echo "## Sampling: start-up and run of a 0.2 s program at 999 Hz (\`mix $SHORT_ROUNDS\`, same rounds)"
echo
echo "| run | wall s | wall overhead % | CPU s | CPU overhead % | budget ≤ ${BUDGET_OVERHEAD} % |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "| plain | $short_plain | — | $short_plain_cpu | — | |"
echo "| callscope record (default) | $(cells "$short_cs" "$short_cs_cpu" "$short_plain" "$short_plain_cpu") |"
if [ $have_gp = 1 ]; then
	short_gp=$(wall short_gp) short_gp_cpu=$(cpu short_gp)
	echo "| gperftools CPUPROFILE (999 Hz) | $short_gp | $(pct "$short_gp" "$short_plain") | $short_gp_cpu | $(pct "$short_gp_cpu" "$short_plain_cpu") | |"
	echo
	awk -v c="$short_cs_cpu" -v g="$short_gp_cpu" 'BEGIN {
		printf "callscope against gperftools in the same rounds (CPU): %s\n",
		       c <= g ? "PASS (no worse)" : "FAIL (dearer)" }'
fi
echo

if [ $have_perf = 1 ]; then
	# Both count user-space samples only (callscope samples the program's
	# own code; perf's cpu-clock would add the kernel's share), on a run
	# long enough that a 20 % share's sampling error (binomial) is about
	# half a point rather than the 1.8 points of a 0.5 s run.
	perf record -e cpu-clock -F 999 -g --all-user -o p.data -- ./mix "$AGREE_ROUNDS" > /dev/null 2>&1
	"$CALLSCOPE" record -o cs.data -- ./mix "$AGREE_ROUNDS" > /dev/null 2>&1
	perf report -i p.data --stdio --no-children --sort sym -F overhead,sym 2> /dev/null |
		awk '/^ +[0-9.]+%/ { gsub("%", "", $1); print $NF, $1 }' | sort -k2,2 -gr | head -10 > perf.top
	"$CALLSCOPE" report -i cs.data --json |
		jq -r '.functions[] | select(.self_samples > 0) | "\(.name) \(.self_pct)"' > cs.top
	echo
	echo "## Top-10 self shares: callscope against perf (budget ±${BUDGET_AGREE} points)"
	echo
	echo "Both on \`mix $AGREE_ROUNDS\` at 999 Hz, user-space samples only."
	echo
	echo "| function | perf % | callscope % | difference | verdict |"
	echo "| --- | --- | --- | --- | --- |"
	while read -r name p; do
		c=$(awk -v n="$name" '$1 == n { print $2 }' cs.top)
		c=${c:-0}
		d=$(echo "$c - $p" | bc -l | xargs printf "%+.2f")
		v=$(awk -v d="$d" -v b=$BUDGET_AGREE 'BEGIN { print ((d < 0 ? -d : d) <= b ? "PASS" : "FAIL") }')
		printf "| %s | %.2f | %.2f | %s | %s |\n" "$name" "$p" "$c" "$d" "$v"
	done < perf.top
fi
