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
# other work on the machine holds perf events open meanwhile.  To tell, a
# probe (bench/progs/perf_first_open.c) opens an event PAUSE seconds before
# each run and times it: a round is cold when every probe of it waited
# (≥ 1 ms).  The medians are given over all rounds and over the cold ones;
# the overheads are each round's against the plain run of that round.  A
# virtual machine's host may slow a whole run by a third (runs of one
# program here fall in two groups, 0.17-0.20 s and 0.24-0.28 s), which
# only adds time: each variant's fastest run, beside, is its cost without
# that.
#
# With TRACED=1 the program is built with -pg and `record` traces it (with
# its samples beside the trace, as by default), which opens a perf event of
# its own for the main thread (its context switches, see
# runtime/cpu_wait.c); the plain run is then the -pg build's own, which
# writes gmon.out, and gperftools is left out.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-sampling-cold), CALLSCOPE,
# BASELINE (another build's callscope, e.g. main's, measured in the same
# rounds), REPEAT (rounds, the median is kept; default 21), PAUSE
# (seconds before each run; default 1.5), ROUNDS (mix's argument; default:
# what takes 0.2 s of CPU here), TRACED.  Prints Markdown.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-sampling-cold}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
BASELINE=${BASELINE:-}
REPEAT=${REPEAT:-21}
PAUSE=${PAUSE:-1.5}
ROUNDS=${ROUNDS:-}
TRACED=${TRACED:-}
BUDGET=3	# percent of a plain run's wall time
. "$HERE/median.sh"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
cc -O2 -g -fno-omit-frame-pointer ${TRACED:+-pg} -o mix "$HERE/progs/sample_mix.c"
cc -O2 -o timed_run "$HERE/progs/timed_run.c"
cc -O2 -o perf_first_open "$HERE/progs/perf_first_open.c"
gp=/usr/lib/x86_64-linux-gnu/libprofiler.so
variants=(plain callscope)
[ -n "$BASELINE" ] && variants+=(baseline)
[ -e "$gp" ] && [ -z "$TRACED" ] && variants+=(gperftools)

if [ -z "$ROUNDS" ]; then
	trial=()
	for _ in 1 2 3; do trial+=("$(./timed_run ./mix 4000 | cut -d' ' -f1)"); done
	ROUNDS=$(echo "4000 * 0.2 / $(median "${trial[*]}")" | bc -l | xargs printf "%.0f")
fi

# run VARIANT: one run after a probe and a pause, "CPU WALL COLD"
run() {
	local probe cold
	sleep "$PAUSE"
	probe=$(./perf_first_open)
	cold=$(awk -v p="$probe" 'BEGIN { print (p >= 1 ? 1 : 0) }')
	sleep "$PAUSE"
	case $1 in
	plain) echo "$(./timed_run ./mix "$ROUNDS") $cold" ;;
	callscope) echo "$(./timed_run "$CALLSCOPE" record -o cs.data -- ./mix "$ROUNDS") $cold" ;;
	baseline) echo "$(./timed_run "$BASELINE" record -o base.data -- ./mix "$ROUNDS") $cold" ;;
	gperftools) echo "$(./timed_run env LD_PRELOAD="$gp" CPUPROFILE=gp.prof \
		CPUPROFILE_FREQUENCY=999 ./mix "$ROUNDS") $cold" ;;
	esac
}

# runs.txt: "ROUND VARIANT CPU WALL COLD", REPEAT interleaved rounds.  Each
# round starts one variant further on: the run after the longest pause of
# a round (its first) was the fastest, and would otherwise always be the
# plain one.
: > runs.txt
nv=${#variants[@]}
for ((r = 1; r <= REPEAT; r++)); do
	for ((i = 0; i < nv; i++)); do
		v=${variants[(r - 1 + i) % nv]}
		echo "$r $v $(run "$v")" >> runs.txt
	done
done
# the rounds whose every probe waited
awk '{ n[$1]++; c[$1] += $5 } END { for (r in n) if (c[r] == n[r]) print r }' runs.txt > cold.txt
ncold=$(wc -l < cold.txt)

# values FIELD VARIANT [ROUNDS-FILE]: the variant's CPU (3) or wall (4)
# seconds, of every round or of those listed
values() {
	awk -v f="$1" -v v="$2" -v only="$([ -n "${3:-}" ] && tr '\n' ' ' < "$3")" '
		BEGIN { n = split(only, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
		$2 == v && (!n || keep[$1]) { print $f }' runs.txt | tr '\n' ' '
}
med() { median "$1" | xargs printf "%.4f"; }
fastest() { tr ' ' '\n' <<<"$1" | grep . | sort -g | head -1 | xargs printf "%.4f"; }
pct() { echo "($1 / $2 - 1) * 100" | bc -l | xargs printf "%+.1f"; }

# overhead FIELD VARIANT [ROUNDS-FILE]: the variant's CPU (3) or wall (4)
# time over the plain run's of the same round, in percent: "MEDIAN
# [LOWER QUARTILE, UPPER QUARTILE]" over the rounds (all, or those
# listed).  Taken round by round, so that the machine's slow drifts,
# which move a whole round, cancel.
overhead() {
	awk -v f="$1" -v v="$2" -v only="$([ -n "${3:-}" ] && tr '\n' ' ' < "$3")" '
		BEGIN { n = split(only, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
		n && !keep[$1] { next }
		$2 == "plain" { plain[$1] = $f }
		$2 == v { mine[$1] = $f }
		END { for (k in mine) if (k in plain) print (mine[k] / plain[k] - 1) * 100 }' runs.txt |
		sort -n | awk '{ a[NR] = $1 } END {
			printf "%+.1f [%+.1f, %+.1f]\n", a[int((NR + 1) / 2)], a[int((NR + 3) / 4)],
			       a[int((3 * NR + 3) / 4)] }'
}
label() {
	case $1 in
	callscope) echo "callscope record" ;;
	baseline) echo "callscope record, baseline build" ;;
	gperftools) echo "gperftools CPUPROFILE (999 Hz)" ;;
	esac
}

# table [ROUNDS-FILE]: the medians of every round, or of those listed
table() {
	local plain_wall plain_cpu plain_fast w c o f verdict
	plain_wall=$(med "$(values 4 plain "$@")") plain_cpu=$(med "$(values 3 plain "$@")")
	plain_fast=$(fastest "$(values 4 plain "$@")")
	echo "| run | wall s | wall overhead %, round by round [quartiles] | CPU s | CPU overhead % [quartiles] | fastest wall s (overhead %) | wall budget ≤ ${BUDGET} % |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	echo "| plain | $plain_wall | — | $plain_cpu | — | $plain_fast | |"
	for v in "${variants[@]:1}"; do
		w=$(med "$(values 4 "$v" "$@")") c=$(med "$(values 3 "$v" "$@")")
		f=$(fastest "$(values 4 "$v" "$@")")
		o=$(overhead 4 "$v" "$@")
		verdict=$(awk -v o="${o%% *}" -v b=$BUDGET 'BEGIN { print (o <= b ? "PASS" : "FAIL") }')
		[ "$v" = gperftools ] && verdict=""
		echo "| $(label "$v") | $w | $o | $c | $(overhead 3 "$v" "$@") | $f ($(pct "$f" "$plain_fast")) | $verdict |"
	done
	if [[ " ${variants[*]} " == *" gperftools "* ]]; then
		echo
		awk -v c="$(med "$(values 4 callscope "$@")")" -v g="$(med "$(values 4 gperftools "$@")")" \
			-v cc="$(med "$(values 3 callscope "$@")")" -v gc="$(med "$(values 3 gperftools "$@")")" 'BEGIN {
			printf "callscope against gperftools in the same rounds: wall %s, CPU %s\n",
			       c <= g ? "PASS (no worse)" : "FAIL (dearer)", cc <= gc ? "PASS (no worse)" : "FAIL (dearer)" }'
	fi
}

if [ -n "$TRACED" ]; then
	echo "## Tracing from a cold start: a 0.2 s program built with -pg (\`mix $ROUNDS\`)"
else
	echo "## Sampling from a cold start: a 0.2 s program at 999 Hz (\`mix $ROUNDS\`)"
fi
echo
echo "Medians of $REPEAT interleaved rounds, each run ${PAUSE} s after a probe and the probe ${PAUSE} s" \
	"after the run before; wall time from the parent, CPU time by wait4 (no perf stat around the" \
	"runs); $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
echo
echo "All $REPEAT rounds:"
echo
table
echo
if [ "$ncold" -ge 5 ]; then
	echo "The $ncold rounds that started cold (every probe waited ≥ 1 ms):"
	echo
	table cold.txt
else
	echo "Only $ncold of the rounds started cold (every probe waited ≥ 1 ms): other work held perf" \
		"events open, and the kernel's wait was paid by it, not by the runs."
fi
echo
[ -n "$TRACED" ] && exit 0
echo "Samples of the last callscope run: $("$CALLSCOPE" report -i cs.data --json |
	jq -r '"\(.samples), \(.tick_timer_samples // 0) of them by the POSIX timer before the task-clock event took over"')."
