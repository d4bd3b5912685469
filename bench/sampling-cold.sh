#!/usr/bin/env bash
# bench/sampling-cold.sh — the wall and CPU time `callscope record` adds to
# a 0.2 s program (bench/progs/sample_mix.c) at 999 Hz, each run started
# cold, beside gperftools' CPU profiler.
#
# The first per-thread perf event opened on a machine that had none for
# about a second waits in perf_event_open() for an RCU grace period
# (8–20 ms here; bench/RESULTS-sampling.md).  bench/sampling.sh runs every
# command under `perf stat`, whose own event takes that wait before the
# program starts, in every row alike, so its wall column never shows it.
# Here nothing runs around the program: bench/progs/timed_run.c forks it
# and takes the wall time from the parent and the CPU time from wait4's
# rusage (the launcher's and the program's), and each run comes PAUSE
# seconds after the one before, so that every run starts cold, unless
# other work on the machine holds perf events open meanwhile.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-sampling-cold), CALLSCOPE,
# BASELINE (another build's callscope, e.g. main's, measured in the same
# rounds), REPEAT (rounds, the median is kept; default 21), PAUSE
# (seconds before each run; default 1.5), ROUNDS (mix's argument; default:
# what takes 0.2 s of CPU here).  Prints Markdown.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-sampling-cold}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
BASELINE=${BASELINE:-}
REPEAT=${REPEAT:-21}
PAUSE=${PAUSE:-1.5}
ROUNDS=${ROUNDS:-}
BUDGET=3	# percent of a plain run's wall time
. "$HERE/median.sh"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
cc -O2 -g -fno-omit-frame-pointer -o mix "$HERE/progs/sample_mix.c"
cc -O2 -o timed_run "$HERE/progs/timed_run.c"
gp=/usr/lib/x86_64-linux-gnu/libprofiler.so
variants=(plain callscope)
[ -n "$BASELINE" ] && variants+=(baseline)
[ -e "$gp" ] && variants+=(gperftools)

if [ -z "$ROUNDS" ]; then
	trial=()
	for _ in 1 2 3; do trial+=("$(./timed_run ./mix 4000 | cut -d' ' -f1)"); done
	ROUNDS=$(echo "4000 * 0.2 / $(median "${trial[*]}")" | bc -l | xargs printf "%.0f")
fi

# run VARIANT: one cold run, "CPU WALL"
run() {
	sleep "$PAUSE"
	case $1 in
	plain) ./timed_run ./mix "$ROUNDS" ;;
	callscope) ./timed_run "$CALLSCOPE" record -o cs.data -- ./mix "$ROUNDS" ;;
	baseline) ./timed_run "$BASELINE" record -o base.data -- ./mix "$ROUNDS" ;;
	gperftools) ./timed_run env LD_PRELOAD="$gp" CPUPROFILE=gp.prof CPUPROFILE_FREQUENCY=999 \
		./mix "$ROUNDS" ;;
	esac
}

declare -A CPU WALL
rounds_cpu_wall run "${variants[@]}" > /dev/null

med() { median "$1" | xargs printf "%.4f"; }
plain_wall=$(med "${WALL[plain]}") plain_cpu=$(med "${CPU[plain]}")
pct() { echo "($1 / $2 - 1) * 100" | bc -l | xargs printf "%+.1f"; }
label() {
	case $1 in
	callscope) echo "callscope record" ;;
	baseline) echo "callscope record, baseline build" ;;
	gperftools) echo "gperftools CPUPROFILE (999 Hz)" ;;
	esac
}

echo "## Sampling from a cold start: a 0.2 s program at 999 Hz (\`mix $ROUNDS\`)"
echo
echo "Medians of $REPEAT interleaved rounds, each run ${PAUSE} s after the one before;" \
	"wall time from the parent, CPU time by wait4 (no perf stat around the runs); $(nproc) cores," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
echo
echo "| run | wall s | wall overhead % | CPU s | CPU overhead % | wall budget ≤ ${BUDGET} % |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "| plain | $plain_wall | — | $plain_cpu | — | |"
for v in "${variants[@]:1}"; do
	w=$(med "${WALL[$v]}") c=$(med "${CPU[$v]}")
	o=$(pct "$w" "$plain_wall")
	verdict=$(awk -v o="$o" -v b=$BUDGET 'BEGIN { print (o <= b ? "PASS" : "FAIL") }')
	[ "$v" = gperftools ] && verdict=""
	echo "| $(label "$v") | $w | $o | $c | $(pct "$c" "$plain_cpu") | $verdict |"
done
if [ -e "$gp" ]; then
	echo
	awk -v c="$(median "${WALL[callscope]}")" -v g="$(median "${WALL[gperftools]}")" \
		-v cc="$(median "${CPU[callscope]}")" -v gc="$(median "${CPU[gperftools]}")" 'BEGIN {
		printf "callscope against gperftools in the same rounds: wall %s, CPU %s\n",
		       c <= g ? "PASS (no worse)" : "FAIL (dearer)", cc <= gc ? "PASS (no worse)" : "FAIL (dearer)" }'
fi
echo
echo "Samples of the last callscope run: $("$CALLSCOPE" report -i cs.data --json |
	jq -r '"\(.samples), \(.tick_timer_samples // 0) of them by the POSIX timer before the task-clock event took over"')."
