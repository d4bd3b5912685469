#!/usr/bin/env bash
# bench/sampling.sh — the sampler against its peers on one workload
# (bench/progs/sample_mix.c, about 0.5 s of CPU): wall-time overhead of
# `callscope record` (its default stacks, --stack=fp and --stack=dwarf; on
# the program built with frame pointers and without), `perf record -F 999
# -g` and gperftools' CPU profiler against a plain run, and the agreement
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

# median wall seconds of REPEAT runs of "$@"; the median CPU seconds
# (perf stat's task-clock of every process of the run, the launcher's
# included) of the same runs go to the file cpu.last: on a machine that
# other jobs share, CPU time moves much less than wall time
median() {
	for _ in $(seq "$REPEAT"); do
		s=$(date +%s.%N)
		perf stat -x, -e task-clock -o stat.out -- "$@" > /dev/null 2>&1
		e=$(date +%s.%N)
		echo "$(echo "$e - $s" | bc -l) $(awk -F, '/task-clock/ { print $1 / 1000 }' stat.out)"
	done > runs.txt
	awk '{ print $2 }' runs.txt | sort -n |
		awk '{ a[NR] = $1 } END { printf "%.4f\n", a[int((NR + 1) / 2)] }' > cpu.last
	awk '{ print $1 }' runs.txt | sort -n |
		awk '{ a[NR] = $1 } END { printf "%.4f\n", a[int((NR + 1) / 2)] }'
}

# The budget is for a run of about half a second: unless told, scale the
# rounds to that on this machine from one timed trial.
if [ -z "$ROUNDS" ]; then
	trial=$(median ./mix 4000)
	ROUNDS=$(echo "4000 * 0.5 / $trial" | bc -l | xargs printf "%.0f")
fi
AGREE_ROUNDS=${AGREE_ROUNDS:-$((ROUNDS * 10))}
plain=$(median ./mix "$ROUNDS")
plain_cpu=$(cat cpu.last)
cs_auto=$(median "$CALLSCOPE" record -o cs.data -- ./mix "$ROUNDS")
cs_auto_cpu=$(cat cpu.last)
plain_nofp=$(median ./mix-nofp "$ROUNDS")
plain_nofp_cpu=$(cat cpu.last)
cs_auto_nofp=$(median "$CALLSCOPE" record -o csn.data -- ./mix-nofp "$ROUNDS")
cs_auto_nofp_cpu=$(cat cpu.last)
cs_fp=$(median "$CALLSCOPE" record --stack=fp -o csf.data -- ./mix "$ROUNDS")
cs_fp_cpu=$(cat cpu.last)
cc -O2 -o empty -x c - <<< 'int main(void) { return 0; }'
cs_empty=$(median "$CALLSCOPE" record -o e.data -- ./empty)
cs_dw=$(median "$CALLSCOPE" record --stack=dwarf -o csd.data -- ./mix "$ROUNDS")
cs_dw_cpu=$(cat cpu.last)
have_perf=0
if command -v perf > /dev/null && perf record -e cpu-clock -F 999 -g -o p.data -- true > /dev/null 2>&1; then
	have_perf=1
	perf_t=$(median perf record -e cpu-clock -F 999 -g -o p.data -- ./mix "$ROUNDS")
	perf_t_cpu=$(cat cpu.last)
fi
gp=/usr/lib/x86_64-linux-gnu/libprofiler.so
have_gp=0
if [ -e "$gp" ]; then
	have_gp=1
	gp_t=$(median env LD_PRELOAD="$gp" CPUPROFILE=gp.prof CPUPROFILE_FREQUENCY=999 ./mix "$ROUNDS")
	gp_t_cpu=$(cat cpu.last)
fi

pct() { echo "($1 / ${2:-$plain} - 1) * 100" | bc -l | xargs printf "%+.1f"; }
# "| wall s | overhead % | budget | CPU s | CPU overhead % |" cells of a run
# against its plain run
cells() {
	local o
	o=$(pct "$1" "$3")
	printf "%s | %s | %s | %s | %s" "$1" "$o" "$(verdict "$o" $BUDGET_OVERHEAD)" "$2" "$(pct "$2" "$4")"
}
stack_method() { "$CALLSCOPE" report -i "$1" --json | jq -r .stack_method; }
verdict() { awk -v o="$1" -v b="$2" 'BEGIN { print (o <= b ? "PASS" : "FAIL") }'; }

echo "## Sampling: overhead at 999 Hz (\`mix $ROUNDS\`, median of $REPEAT runs, $(nproc) cores)"
echo
echo "| run | wall s | overhead % | budget ≤ ${BUDGET_OVERHEAD} % | CPU s | CPU overhead % |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "| plain | $plain | — | | $plain_cpu | — |"
echo "| callscope record of an empty program (start-up and sealing) | $cs_empty | — | | | |"
echo "| callscope record (default stacks: $(stack_method cs.data)) | $(cells "$cs_auto" "$cs_auto_cpu" "$plain" "$plain_cpu") |"
echo "| plain, built without frame pointers | $plain_nofp | — | | $plain_nofp_cpu | — |"
echo "| callscope record, built without frame pointers (default stacks: $(stack_method csn.data)) | $(cells "$cs_auto_nofp" "$cs_auto_nofp_cpu" "$plain_nofp" "$plain_nofp_cpu") |"
echo "| callscope record --stack=fp | $(cells "$cs_fp" "$cs_fp_cpu" "$plain" "$plain_cpu") |"
echo "| callscope record --stack=dwarf | $(cells "$cs_dw" "$cs_dw_cpu" "$plain" "$plain_cpu") |"
[ $have_perf = 1 ] && echo "| perf record -e cpu-clock -F 999 -g | $perf_t | $(pct "$perf_t") | | $perf_t_cpu | $(pct "$perf_t_cpu" "$plain_cpu") |"
[ $have_gp = 1 ] && echo "| gperftools CPUPROFILE (999 Hz) | $gp_t | $(pct "$gp_t") | | $gp_t_cpu | $(pct "$gp_t_cpu" "$plain_cpu") |"
echo
echo "Data size: callscope $(stat -c %s cs.data) bytes (default), $(stat -c %s csn.data) bytes" \
	"(default, no frame pointers), $(stat -c %s csf.data) bytes (fp), $(stat -c %s csd.data) bytes (dwarf)."

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
