#!/usr/bin/env bash
# bench/process-start.sh — what each profiler adds to a thread, a child
# process and an exec'd one.
#
# A program that starts many short threads or processes — a build tool
# running its commands, make, a shell script, a server that forks —
# pays whatever a profiler does as each one starts and ends: files and
# buffers set up, a measurement of its own cost, the process described.
# Each unit runs N times in one command, and the CPU time of the whole
# command (the program, its children, and the profiler's own processes,
# as bench/progs/timed_run.c's wait4() gives it) is divided by N:
#   thread     bench/progs/thread_start.c: a thread created and joined
#   fork       bench/progs/process_start.c: a child forked, _exit()s
#   fork+exec  the same child execs /bin/true
#   sh loop    sh -c 'while ...; do /bin/true; done' (dash forks and execs)
#   ninja edge with NINJA (a ninja built with -pg, bench/build_real.sh's
#              sources and flags): `ninja -j1` of edges `touch $out`, each
#              a posix_spawn of /bin/sh -c that execs touch
# Variants: plain; uftrace (`--force` for the shell, which has no
# hooks); callscope's trace of the -pg build; its --mode=sample of the
# build without hooks (the shell is sampled in both); and, with
# BASELINE (another build's callscope), the same two beside them.  Each
# runs in a directory of its own, made fresh for the run (a file system
# that reuses the inodes of files deleted a moment ago slows a profiler
# that creates files).  A run of one unit is taken off a run of N, so
# what the program and the profiler cost once (the profiler's start,
# its writing of the recording) is left out.  REPEAT interleaved
# rounds, the median kept.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-process-start),
# CALLSCOPE, BASELINE, REPEAT (default 5), THREADS (default 400),
# CHILDREN (default 200), NINJA.  Prints Markdown.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-process-start}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
BASELINE=${BASELINE:-}
REPEAT=${REPEAT:-5}
THREADS=${THREADS:-400}
CHILDREN=${CHILDREN:-200}
. "$HERE/median.sh"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
cc -O2 -pg -pthread -o ts-pg "$HERE/progs/thread_start.c"
cc -O2 -pthread -o ts "$HERE/progs/thread_start.c"
cc -O2 -pg -o ps-pg "$HERE/progs/process_start.c"
cc -O2 -o ps "$HERE/progs/process_start.c"
cc -O2 -o timed_run "$HERE/progs/timed_run.c"
TRUE=/bin/true
units=(thread fork fork+exec "sh loop")
NINJA=${NINJA:-}
[ -n "$NINJA" ] && units+=("ninja edge")
variants=(plain trace sample)
[ -n "$BASELINE" ] && variants+=(baseline-trace baseline-sample)
command -v uftrace > /dev/null && variants+=(uftrace)


# runs UNIT N times under VARIANT in a fresh directory; prints the CPU
# seconds of the whole command
run_n() {
	local unit=$1 variant=$2 n=$3 dir pg="-pg" prefix=() cmd=()
	case $variant in
	plain) ;;
	trace) prefix=("$CALLSCOPE" record -o cs.data --) ;;
	sample) prefix=("$CALLSCOPE" record --mode=sample -o cs.data --); pg="" ;;
	baseline-trace) prefix=("$BASELINE" record -o cs.data --) ;;
	baseline-sample) prefix=("$BASELINE" record --mode=sample -o cs.data --); pg="" ;;
	uftrace) prefix=(uftrace record -d uftrace.data); [ "$unit" = "sh loop" ] && prefix+=(--force) ;;
	esac
	case $unit in
	thread) cmd=("../ts$pg" "$n") ;;
	fork) cmd=("../ps$pg" "$n") ;;
	fork+exec) cmd=("../ps$pg" "$n" "$TRUE") ;;
	"sh loop") cmd=(/bin/sh -c "i=0; while [ \$i -lt $n ]; do $TRUE; i=\$((i + 1)); done") ;;
	"ninja edge") cmd=("$NINJA" -j1) ;;
	esac
	dir=$(mktemp -d "$BENCH_DIR/run.XXXXXX")
	[ "$unit" = "ninja edge" ] &&
		awk -v n="$n" 'BEGIN { print "rule t\n  command = touch $out"
			for (i = 0; i < n; i++) printf "build o%d: t\n", i }' > "$dir/build.ninja"
	(cd "$dir" && ../timed_run "${prefix[@]}" "${cmd[@]}" | cut -d' ' -f1)
	rm -rf "$dir"
}

# UNIT's CPU µs each under VARIANT: a run of N units less a run of one,
# which leaves out what the program and the profiler cost once
run() {
	local n=$CHILDREN
	[ "$1" = thread ] && n=$THREADS
	echo "($(run_n "$1" "$2" "$n") - $(run_n "$1" "$2" 1)) * 1000000 / ($n - 1)" | bc -l
}

declare -A CPU
for ((r = 0; r < REPEAT; r++)); do
	for u in "${units[@]}"; do
		for v in "${variants[@]}"; do
			CPU[$u/$v]="${CPU[$u/$v]:-} $(run "$u" "$v")"
		done
	done
done

header="| CPU µs per unit |"
rule="| --- |"
for v in "${variants[@]}"; do
	header+=" $v |"
	rule+=" ---: |"
done
echo "$header"
echo "$rule"
for u in "${units[@]}"; do
	plain=$(median "${CPU[$u/plain]}")
	line="| $u |"
	for v in "${variants[@]}"; do
		m=$(median "${CPU[$u/$v]}")
		if [ "$v" = plain ]; then
			line+=$(printf ' %.0f |' "$m")
		else
			line+=$(printf ' %.0f (%.1f×) |' "$m" "$(echo "$m / $plain" | bc -l)")
		fi
	done
	echo "$line"
done
echo
echo "CPU time of the whole command (program, children, profiler) per unit, median of $REPEAT interleaved rounds;"
echo "$THREADS threads, $CHILDREN children a run; × plain in brackets; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)."
