#!/usr/bin/env bash
# bench/thread-start.sh — what each profiler adds to a thread's start.
#
# bench/progs/thread_start.c starts THREADS threads one after another and
# times each from pthread_create() to the thread's first instruction (the
# program is built with -pg; its plain run writes gmon.out).  A profiler
# that sets a thread up as it starts (a buffer, perf events) adds that to
# every thread: a program that starts a thread per request, or a test
# that expects a thread to run within a deadline, sees it.  Each variant
# runs once a round, REPEAT interleaved rounds, and the median of the
# rounds' medians is kept.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-thread-start), CALLSCOPE,
# BASELINE (another build's callscope, its trace, count and flight modes
# measured in the same rounds), REPEAT (default 7), THREADS (default 200).
# Prints Markdown.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-thread-start}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
BASELINE=${BASELINE:-}
REPEAT=${REPEAT:-7}
THREADS=${THREADS:-200}
. "$HERE/median.sh"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
cc -O2 -pg -pthread -o ts "$HERE/progs/thread_start.c"
variants=(plain trace count flight sample)
[ -n "$BASELINE" ] && variants+=(baseline-trace baseline-count baseline-flight)
command -v uftrace > /dev/null && variants+=(uftrace)
command -v perf > /dev/null && variants+=(perf)

run() {
	case $1 in
	plain) ./ts "$THREADS" ;;
	trace | count | flight | sample)
		"$CALLSCOPE" record --mode="$1" -o cs.data -- ./ts "$THREADS" 2> /dev/null ;;
	baseline-*) "$BASELINE" record --mode="${1#baseline-}" -o base.data -- ./ts "$THREADS" 2> /dev/null ;;
	uftrace) uftrace record -d uftrace.data ./ts "$THREADS" 2> /dev/null ;;
	perf) perf record -q -F 999 -g -o perf.data ./ts "$THREADS" 2> /dev/null ;;
	esac
}

declare -A MED P90 WALL
for ((r = 0; r < REPEAT; r++)); do
	for v in "${variants[@]}"; do
		read -r m p w <<<"$(run "$v" | tail -1)"
		MED[$v]="${MED[$v]:-} $m"
		P90[$v]="${P90[$v]:-} $p"
		WALL[$v]="${WALL[$v]:-} $w"
	done
done

plain=$(median "${MED[plain]}")
echo "| variant | thread start, median (µs) | 90th percentile (µs) | × plain | program's wall (ms) |"
echo "| --- | --- | --- | --- | --- |"
for v in "${variants[@]}"; do
	m=$(median "${MED[$v]}")
	printf '| %s | %s | %s | %.1f | %s |\n' "$v" "$m" "$(median "${P90[$v]}")" \
		"$(echo "$m / $plain" | bc -l)" "$(median "${WALL[$v]}")"
done
echo
echo "$THREADS threads a run, median of $REPEAT interleaved rounds; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)."
