#!/usr/bin/env bash
# bench/run.sh — compare callscope with its peers on two call-heavy
# workloads and print Markdown tables: time, ns and bytes per call, report
# time, and the budget checks (PASS/FAIL).
#
#   bench/setup.sh && make && bench/run.sh        (or: make bench)
#
# Every ratio is measured side by side in this one run on this machine:
# absolute numbers move from machine to machine, ratios much less.
#
# Knobs (environment):
#   BENCH_DIR   scratch folder for builds and traces (default /tmp/callscope-bench)
#   CALLSCOPE   the CLI to test (default <repo>/build/callscope)
#   REPEAT      runs per measurement, the best is kept (default 3)
#   CH_ARGS     callheavy arguments "N M": fib(N), M tiny calls (default "30 10000000")
#   LUA_ARGS    work.lua arguments "N K": fib(N), K rounds (default "27 20")
#   UFTRACE_RECORD_OPTS  extra 'uftrace record' options (default --no-libcall,
#               so uftrace traces the same calls callscope does and no more)
#   CALLSCOPE_RECORD_OPTS  extra 'callscope record' options (default
#               --no-libcall, to match uftrace's; bench/libcall.sh prices
#               library calls)
#   RUN_TIMEOUT seconds before one run is given up as failed (default 300)
#   KEEP_DATA=1 keep the trace files in BENCH_DIR/run after the run
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
REPEAT=${REPEAT:-3}
CH_ARGS=${CH_ARGS:-30 10000000}
LUA_ARGS=${LUA_ARGS:-27 20}
UFTRACE_RECORD_OPTS=${UFTRACE_RECORD_OPTS:---no-libcall}
CALLSCOPE_RECORD_OPTS=${CALLSCOPE_RECORD_OPTS:---no-libcall}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
KEEP_DATA=${KEEP_DATA:-0}

# The project's budgets for function tracing.
BUDGET_NS_LUA=40      # callscope record: at most this many ns per call on lua
BUDGET_RECORD=5       # uftrace record time / callscope record time, at least
BUDGET_REPORT=10      # uftrace report time / callscope report time, at least

# Same optimisation for every variant, so the only difference between two
# binaries of a workload is the instrumentation.
BASE_CFLAGS="-O2 -g"

LOG=$BENCH_DIR/log
mkdir -p "$LOG"

die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

for tool in gcc uftrace gprof python3 timeout; do
	command -v "$tool" >/dev/null || die "'$tool' not found; run bench/setup.sh first"
done
# lua_bench_setup (BIN, RUN, say, lua_src), needs_build and build_lua
# shellcheck source=bench/build_lua.sh
. "$HERE/build_lua.sh"
lua_bench_setup || exit 1

WORKLOADS=(callheavy lua)

# The binaries each workload is built as, and the flags that make them.
#   plain     no instrumentation: the baseline every cost is measured from
#   pg        gprof's mcount calls; also what uftrace and callscope trace
#   pgfentry  the same with the call at the very entry (__fentry__)
#   finstr    -finstrument-functions, hooks from whoever provides them
#             (glibc's empty ones, or callscope's / uftrace's preloaded)
#   hooks     -finstrument-functions linked with bench/progs/empty_hooks.c:
#             the bare cost of the compiler's hook calls
BINARIES=(plain pg pgfentry finstr hooks)
declare -A BFLAGS=(
	[plain]=""
	[pg]="-pg"
	[pgfentry]="-pg -mfentry"
	[finstr]="-finstrument-functions"
	[hooks]="-finstrument-functions"
)
declare -A BLABEL=(
	[plain]="plain"
	[pg]="-pg"
	[pgfentry]="-pg -mfentry"
	[finstr]="-finstrument-functions"
	[hooks]="-finstrument-functions + empty hooks"
)

# ---------------------------------------------------------------- builds

build_hooks() {
	local obj=$BIN/empty_hooks.o
	# Compiled without -finstrument-functions: the hooks must not call themselves.
	if needs_build "$obj" "$HERE/progs/empty_hooks.c"; then
		# shellcheck disable=SC2086 # BASE_CFLAGS holds several words on purpose
		gcc $BASE_CFLAGS -c -o "$obj" "$HERE/progs/empty_hooks.c"
	fi
}

build_callheavy() {
	local b=$1 out=$BIN/callheavy-$1 extra=()
	[ "$b" = hooks ] && extra=("$BIN/empty_hooks.o")
	if needs_build "$out" "$HERE/progs/callheavy.c" "${extra[@]}"; then
		# shellcheck disable=SC2086 # the flag strings hold several words on purpose
		gcc $BASE_CFLAGS ${BFLAGS[$b]} -o "$out" "$HERE/progs/callheavy.c" "${extra[@]}"
	fi
}

say "building into $BIN"
build_hooks
for b in "${BINARIES[@]}"; do
	build_callheavy "$b"
done
# Lua takes ~10 s a binary: build two at a time (the machine has 2 cores).
pids=()
for b in "${BINARIES[@]}"; do
	build_lua "$b" >"$LOG/build-lua-$b.log" 2>&1 &
	pids+=($!)
	if [ "${#pids[@]}" -ge 2 ]; then
		wait "${pids[0]}" || die "building lua-${BINARIES[0]} failed; see $LOG"
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]}"; do
	wait "$p" || die "building lua failed; see $LOG/build-lua-*.log"
done

# The command line of each workload, given the binary's path.
workload_cmd() {
	local w=$1 bin=$2
	case $w in
	callheavy) echo "$bin $CH_ARGS" ;;
	lua) echo "$bin $HERE/progs/work.lua $LUA_ARGS" ;;
	esac
}

# ---------------------------------------------------------------- timing

# best_of CLEAN DIR CMD...: run CMD (in DIR, stdout discarded) REPEAT times
# and print the fastest wall time in seconds.  CLEAN is a path removed
# before each run, outside the timed part ('-' for none), so every run
# starts from the same state (uftrace would otherwise rename the old
# directory, callscope might append).  Fails if any run fails: a tool that
# crashes once has no time worth reporting.
best_of() {
	local clean=$1 dir=$2 best="" i t0 t1 t
	shift 2
	for ((i = 0; i < REPEAT; i++)); do
		[ "$clean" = - ] || rm -rf "$clean"
		# EPOCHREALTIME is read by bash itself: no fork inside the timed part.
		t0=$EPOCHREALTIME
		if ! (cd "$dir" && exec timeout "$RUN_TIMEOUT" "$@") >/dev/null 2>>"$dir/stderr.log"; then
			return 1
		fi
		t1=$EPOCHREALTIME
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then
			best=$t
		fi
	done
	echo "$best"
}

# size_of PATH: bytes of a file, or of all files in a directory.
size_of() {
	du -sb "$1" | cut -f1
}

# uftrace_calls DIR: traced calls in a uftrace record, from its report;
# its 'linux:schedule' lines are scheduler events, not calls.
uftrace_calls() {
	uftrace report -d "$1" -f call 2>/dev/null |
		awk 'NR > 2 && $2 !~ /^linux:/ { n += $1 } END { print n + 0 }'
}

# callscope_calls FILE: the sum of the per-function call counts in
# 'callscope report --json', then the lost-event count.
callscope_calls() {
	timeout "$RUN_TIMEOUT" "$CALLSCOPE" report -i "$1" --json 2>/dev/null |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(int(f.get("calls", 0)) for f in d["functions"]), int(d.get("lost_events", 0)))'
}

# callgrind_calls WORKLOAD BINARY: calls into functions of the binary itself
# (not libc, not PLT stubs), counted by callgrind.  The last resort for a
# -finstrument-functions binary: it sees real calls only, so it misses the
# hook calls of inlined functions and undercounts.
callgrind_calls() {
	local w=$1 b=$2 bin out
	bin=$(realpath "$BIN/$w-$b")
	out=$RUN/$w-$b-callgrind.out
	# shellcheck disable=SC2046 # the workload command is split on purpose
	valgrind --tool=callgrind --callgrind-out-file="$out" \
		$(workload_cmd "$w" "$bin") >/dev/null 2>>"$LOG/callgrind.log" || return 1
	# Names are compressed: "(id) name" defines, "(id)" refers back.
	# A call's object is cob= when given, else the caller's ob=.
	awk -v bin="$bin" '
	function name(s, tab,   id) {
		if (match(s, /^\([0-9]+\)/)) {
			id = substr(s, 1, RLENGTH)
			s = substr(s, RLENGTH + 1)
			sub(/^ /, "", s)
			if (s != "") tab[id] = s
			return tab[id]
		}
		return s
	}
	/^ob=/  { ob = name(substr($0, 4), obs); cob = "" }
	/^fn=/  { cob = "" }
	/^cob=/ { cob = name(substr($0, 5), obs) }
	/^cfn=/ { cfn = name(substr($0, 5), fns) }
	/^fn=/  { name(substr($0, 4), fns) }
	/^calls=/ {
		split(substr($0, 7), a, " ")
		if ((cob != "" ? cob : ob) == bin && cfn !~ /@plt|^0x/) n += a[1]
		cob = ""
	}
	END { print n + 0 }' "$out"
	rm -f "$out"
}

# ------------------------------------------------------------- callscope

# Is callscope usable at all?  It is being written alongside this bench:
# when it is missing or fails a small trace, its cells say n/a instead of
# stopping the bench.
CALLSCOPE_OK=0
callscope_why=""
if [ ! -x "$CALLSCOPE" ]; then
	callscope_why="'$CALLSCOPE' not found (run 'make' at the repo root)"
elif [ ! -e "$(dirname "$CALLSCOPE")/libcallscope.so" ]; then
	callscope_why="no libcallscope.so beside '$CALLSCOPE'"
else
	smoke=$RUN/smoke
	rm -rf "$smoke" && mkdir -p "$smoke"
	if (cd "$smoke" && timeout 60 "$CALLSCOPE" record -o "$smoke/smoke.data" -- \
		"$BIN/callheavy-pg" 10 100) >"$smoke/out.log" 2>&1 &&
		n=$(callscope_calls "$smoke/smoke.data") && [ "${n%% *}" -gt 0 ]; then
		CALLSCOPE_OK=1
	else
		callscope_why="a small 'callscope record' + 'report --json' failed (see $smoke/out.log)"
	fi
fi
if [ "$CALLSCOPE_OK" = 1 ]; then
	say "callscope: $CALLSCOPE"
else
	say "callscope: n/a — $callscope_why"
fi

# ------------------------------------------------------------------ runs

# Results, keyed "workload,variant" (times, bytes) or "workload,binary"
# (call counts and where they came from).
declare -A T BYTES CALLS CALLS_FROM UF_CALLS CS_CALLS CS_LOST RT NOTE KEPT
# The rows of the first table: variant name, the binary it runs, the tool.
VARIANTS=(plain gprof gprof-fentry hooks uftrace-pg uftrace-finstr callscope-pg callscope-fentry callscope-finstr callscope-flight callscope-count)
declare -A VBIN=(
	[plain]=plain [gprof]=pg [gprof-fentry]=pgfentry [hooks]=hooks
	[uftrace-pg]=pg [uftrace-finstr]=finstr
	[callscope-pg]=pg [callscope-fentry]=pgfentry [callscope-finstr]=finstr
	[callscope-flight]=pg
	[callscope-count]=pg
)
declare -A VLABEL=(
	[plain]="plain"
	[gprof]="gprof (mcount)"
	[gprof-fentry]="gprof (fentry)"
	[hooks]="empty -finstrument-functions hooks"
	[uftrace-pg]="uftrace record"
	[uftrace-finstr]="uftrace record"
	[callscope-pg]="callscope record"
	[callscope-fentry]="callscope record"
	[callscope-finstr]="callscope record"
	[callscope-flight]="callscope record --mode=flight (1M ring)"
	[callscope-count]="callscope record --mode=count"
)

# run_variant WORKLOAD VARIANT: time it; record the data size and, for the
# tracers, the call count they saw.
run_variant() {
	local w=$1 v=$2 b=${VBIN[$2]} dir=$RUN/$1-$2 bin t cmd
	bin=$BIN/$w-$b
	rm -rf "$dir" && mkdir -p "$dir"
	read -r -a cmd <<<"$(workload_cmd "$w" "$bin")"
	case $v in
	plain | gprof | gprof-fentry | hooks)
		# -pg binaries write gmon.out into the working directory.
		t=$(best_of - "$dir" "${cmd[@]}") || t=""
		;;
	uftrace-*)
		# shellcheck disable=SC2086 # options are several words
		t=$(best_of "$dir/uftrace.data" "$dir" uftrace record $UFTRACE_RECORD_OPTS \
			-d "$dir/uftrace.data" "${cmd[@]}") || t=""
		if [ -n "$t" ]; then
			BYTES[$w,$v]=$(size_of "$dir/uftrace.data")
			UF_CALLS[$w,$b]=$(uftrace_calls "$dir/uftrace.data")
		fi
		;;
	callscope-*)
		[ "$CALLSCOPE_OK" = 1 ] || return 0
		local mode=()
		[ "$v" = callscope-flight ] && mode=(--mode=flight=1M)
		[ "$v" = callscope-count ] && mode=(--mode=count)
		# shellcheck disable=SC2086 # options are several words
		t=$(best_of "$dir/callscope.data" "$dir" "$CALLSCOPE" record $CALLSCOPE_RECORD_OPTS "${mode[@]}" \
			-o "$dir/callscope.data" -- "${cmd[@]}") || t=""
		if [ -n "$t" ] && [ -e "$dir/callscope.data" ]; then
			local counts
			BYTES[$w,$v]=$(size_of "$dir/callscope.data")
			# a ring keeps only the newest calls: its count is not the
			# run's, but its bytes per call are over what it kept
			if [ "$v" = callscope-count ]; then
				:	# the same calls as the trace, summed: nothing to count anew
			elif [ "$v" = callscope-flight ]; then
				counts=$(callscope_calls "$dir/callscope.data") && KEPT[$w]=${counts%% *}
			elif counts=$(callscope_calls "$dir/callscope.data"); then
				CS_CALLS[$w,$b]=${counts%% *}
				CS_LOST[$w,$v]=${counts##* }
			fi
		fi
		;;
	esac
	if [ -n "$t" ]; then
		T[$w,$v]=$t
	else
		NOTE[$w,$v]="failed: see $dir/stderr.log"
		say "$w $v failed (see $dir/stderr.log)"
	fi
}

# gprof_calls GMON_DIR BINARY: calls seen by gprof's own mcount, summed
# from its call graph: "called" reads N, or N+M where M are recursive calls
# (the flat profile leaves those out); a cycle's "as a whole" line repeats
# its members and is skipped.  Calls from outside the binary (main's) are
# not counted: one or two calls less than the tracers see.
gprof_calls() {
	[ -e "$1/gmon.out" ] || return 1
	gprof -b -q "$BIN/$2" "$1/gmon.out" 2>/dev/null |
		awk '/^\[[0-9]+\]/ && !/as a whole/ && $5 ~ /^[0-9]+(\+[0-9]+)?$/ {
			split($5, a, "+"); n += a[1] + a[2] }
		END { print n + 0 }'
}

# count_calls WORKLOAD BINARY: settle the call count of one binary: callscope's
# own when it has one, else uftrace's, else gprof's (for -pg binaries: their
# gmon.out has exact arc counts), else callgrind's (not for -pg binaries:
# their profiling timer kills them under valgrind).
count_calls() {
	local w=$1 b=$2 n
	if [ -n "${CS_CALLS[$w,$b]:-}" ]; then
		CALLS[$w,$b]=${CS_CALLS[$w,$b]}
		CALLS_FROM[$w,$b]=callscope
	elif [ -n "${UF_CALLS[$w,$b]:-}" ] && [ "${UF_CALLS[$w,$b]}" -gt 0 ]; then
		CALLS[$w,$b]=${UF_CALLS[$w,$b]}
		CALLS_FROM[$w,$b]=uftrace
	elif [ "$b" = pg ] && n=$(gprof_calls "$RUN/$w-gprof" "$w-$b") && [ "$n" -gt 0 ]; then
		CALLS[$w,$b]=$n
		CALLS_FROM[$w,$b]=gprof
	elif [ "$b" = pgfentry ] && n=$(gprof_calls "$RUN/$w-gprof-fentry" "$w-$b") && [ "$n" -gt 0 ]; then
		CALLS[$w,$b]=$n
		CALLS_FROM[$w,$b]=gprof
	elif [ "$b" = finstr ] && command -v valgrind >/dev/null &&
		n=$(callgrind_calls "$w" "$b") && [ "$n" -gt 0 ]; then
		CALLS[$w,$b]=$n
		CALLS_FROM[$w,$b]=callgrind
	fi
}

# differ A B: true when two counts of the same binary's calls differ by more
# than 0.1 % (a handful of calls around start-up and exit may differ; more
# means one of the tools misses or invents calls).
differ() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d > 0.001 * b) }'
}

# report_times WORKLOAD: time the three readers on the -pg runs just made.
report_times() {
	local w=$1 t
	local pg=$RUN/$w-gprof uf=$RUN/$w-uftrace-pg cs=$RUN/$w-callscope-pg
	if [ -e "$pg/gmon.out" ]; then
		t=$(best_of - "$pg" gprof -b "$BIN/$w-pg" "$pg/gmon.out") && RT[$w,gprof]=$t
	fi
	if [ -d "$uf/uftrace.data" ]; then
		t=$(best_of - "$uf" uftrace report -d "$uf/uftrace.data") && RT[$w,uftrace]=$t
	fi
	if [ "$CALLSCOPE_OK" = 1 ] && [ -e "$cs/callscope.data" ]; then
		t=$(best_of - "$cs" "$CALLSCOPE" report -i "$cs/callscope.data") && RT[$w,callscope]=$t
	fi
}

for w in "${WORKLOADS[@]}"; do
	for v in "${VARIANTS[@]}"; do
		say "$w: $v (${BLABEL[${VBIN[$v]}]}), best of $REPEAT"
		run_variant "$w" "$v"
	done
	for b in pg pgfentry finstr; do
		count_calls "$w" "$b"
	done
	# The empty hooks run the -finstrument-functions binary's calls.
	if [ -n "${CALLS[$w,finstr]:-}" ]; then
		CALLS[$w,hooks]=${CALLS[$w,finstr]}
		CALLS_FROM[$w,hooks]="${CALLS_FROM[$w,finstr]} (-fi)"
	fi
	say "$w: report times, best of $REPEAT"
	report_times "$w"
	# The traces are large (uftrace writes ~32 bytes a call); free the disk
	# before the next workload unless asked to keep them.
	if [ "$KEEP_DATA" != 1 ]; then
		rm -rf "$RUN/$w"-uftrace-*/uftrace.data "$RUN/$w"-callscope-*/callscope.data
	fi
done

# ---------------------------------------------------------------- tables

# fmt_ns WORKLOAD VARIANT: (variant time − plain time) / calls, in ns.
fmt_ns() {
	local w=$1 v=$2 b=${VBIN[$2]}
	if [ "$v" = plain ]; then echo "—"; return; fi
	if [ -z "${T[$w,$v]:-}" ] || [ -z "${T[$w,plain]:-}" ] || [ -z "${CALLS[$w,$b]:-}" ]; then
		echo "n/a"
		return
	fi
	awk -v t="${T[$w,$v]}" -v p="${T[$w,plain]}" -v n="${CALLS[$w,$b]}" \
		'BEGIN { printf "%.1f", (t - p) * 1e9 / n }'
}

fmt_bytes() {
	local w=$1 v=$2 b=${VBIN[$2]}
	case $v in uftrace-* | callscope-*) ;; *) echo "—"; return ;; esac
	local n=${CALLS[$w,$b]:-}
	[ "$v" = callscope-flight ] && n=${KEPT[$w]:-}
	if [ -z "${BYTES[$w,$v]:-}" ] || [ -z "$n" ]; then
		echo "n/a"
		return
	fi
	awk -v s="${BYTES[$w,$v]}" -v n="$n" 'BEGIN { printf "%.1f", s / n }'
}

# ratio A B [DIGITS]: A / B to DIGITS decimals (default one), or n/a.
ratio() {
	if [ -z "$1" ] || [ -z "$2" ]; then echo "n/a"; return; fi
	awk -v a="$1" -v b="$2" -v d="${3:-1}" \
		'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "n/a" }'
}

# fmt_x X: "X×" for a ratio, n/a as is.
fmt_x() { [ "$1" = n/a ] && echo n/a || echo "$1×"; }

# verdict VALUE OP LIMIT: PASS, FAIL, or n/a when there is no value.
verdict() {
	[ "$1" = n/a ] && { echo "n/a"; return; }
	if awk -v x="$1" -v l="$3" -v op="$2" 'BEGIN { exit !(op == "<=" ? x <= l : x >= l) }'; then
		echo PASS
	else
		echo FAIL
	fi
}

or_na() { echo "${1:-n/a}"; }

git_rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
# Changes to bench/ itself do not change what is measured.
if [ -n "$(git -C "$ROOT" status --porcelain -- . ':(exclude)bench' 2>/dev/null | head -n 1)" ]; then
	git_rev="$git_rev (with uncommitted changes)"
fi

{
	echo "## callscope vs peers — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r)."
	echo "Tools: $(gcc --version | head -n 1); $(uftrace --version | head -n 1); callscope $git_rev."
	echo "Workloads: \`callheavy $CH_ARGS\`; \`lua work.lua $LUA_ARGS\` (Lua $(basename "$(dirname "$lua_src")" | sed 's/^lua5.4-//') from Debian source)."
	echo "Times are the best of $REPEAT runs; all at $BASE_CFLAGS; uftrace record options: \`${UFTRACE_RECORD_OPTS:-none}\`; callscope record options: \`${CALLSCOPE_RECORD_OPTS:-none}\`."
	echo "ns/call = (time − plain time) / calls; bytes/call = size of the trace written / calls."
	echo
	echo "### Cost per call"
	echo
	echo "| workload | run | binary | time (s) | calls | calls counted by | ns/call | bytes/call |"
	echo "| --- | --- | --- | ---: | ---: | --- | ---: | ---: |"
	for w in "${WORKLOADS[@]}"; do
		for v in "${VARIANTS[@]}"; do
			b=${VBIN[$v]}
			calls="—"
			from="—"
			if [ "$v" != plain ]; then
				calls=$(or_na "${CALLS[$w,$b]:-}")
				from=$(or_na "${CALLS_FROM[$w,$b]:-}")
			fi
			echo "| $w | ${VLABEL[$v]} | ${BLABEL[$b]} | $(or_na "${T[$w,$v]:-}") | $calls | $from | $(fmt_ns "$w" "$v") | $(fmt_bytes "$w" "$v") |"
		done
	done
	echo
	echo "### Report time (on the -pg runs above)"
	echo
	echo "| workload | callscope report (s) | uftrace report (s) | gprof -b (s) |"
	echo "| --- | ---: | ---: | ---: |"
	for w in "${WORKLOADS[@]}"; do
		echo "| $w | $(or_na "${RT[$w,callscope]:-}") | $(or_na "${RT[$w,uftrace]:-}") | $(or_na "${RT[$w,gprof]:-}") |"
	done
	echo
	echo "### Budgets"
	echo
	echo "| check | workload | binary | value | budget | result |"
	echo "| --- | --- | --- | ---: | ---: | --- |"
	pass=0 fail=0 na=0
	tally() {
		case $1 in PASS) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; *) na=$((na + 1)) ;; esac
	}
	for v in callscope-pg callscope-fentry callscope-finstr; do
		ns=$(fmt_ns lua "$v")
		r=$(verdict "$ns" "<=" "$BUDGET_NS_LUA")
		tally "$r"
		echo "| callscope record, ns/call | lua | ${BLABEL[${VBIN[$v]}]} | $ns | ≤ $BUDGET_NS_LUA | $r |"
	done
	for w in "${WORKLOADS[@]}"; do
		for b in pg finstr; do
			x=$(ratio "${T[$w,uftrace-$b]:-}" "${T[$w,callscope-$b]:-}")
			r=$(verdict "$x" ">=" "$BUDGET_RECORD")
			tally "$r"
			echo "| uftrace record / callscope record | $w | ${BLABEL[$b]} | $(fmt_x "$x") | ≥ $BUDGET_RECORD× | $r |"
		done
	done
	# count mode sums in the program what a trace writes: no dearer
	for w in "${WORKLOADS[@]}"; do
		x=$(ratio "${T[$w,callscope-count]:-}" "${T[$w,callscope-pg]:-}" 2)
		r=$(verdict "$x" "<=" 1)
		tally "$r"
		echo "| callscope record --mode=count / callscope record | $w | -pg | $(fmt_x "$x") | ≤ 1× | $r |"
	done
	for w in "${WORKLOADS[@]}"; do
		x=$(ratio "${RT[$w,uftrace]:-}" "${RT[$w,callscope]:-}")
		r=$(verdict "$x" ">=" "$BUDGET_REPORT")
		tally "$r"
		echo "| uftrace report / callscope report | $w | -pg | $(fmt_x "$x") | ≥ $BUDGET_REPORT× | $r |"
	done
	echo
	echo "Budgets: $pass PASS, $fail FAIL, $na n/a."
	# Notes: what failed, what was lost, why callscope is missing.
	notes=()
	[ "$CALLSCOPE_OK" = 1 ] || notes+=("callscope not measured: $callscope_why.")
	for k in "${!NOTE[@]}"; do notes+=("${k/,/ }: ${NOTE[$k]}."); done
	for k in "${!CS_LOST[@]}"; do
		[ "${CS_LOST[$k]}" = 0 ] || notes+=("${k/,/ }: callscope lost ${CS_LOST[$k]} events.")
	done
	for k in "${!UF_CALLS[@]}"; do
		if [ -n "${CS_CALLS[$k]:-}" ] && differ "${CS_CALLS[$k]}" "${UF_CALLS[$k]}"; then
			notes+=("${k/,/-}: calls counted by callscope ${CS_CALLS[$k]}, by uftrace ${UF_CALLS[$k]}.")
		fi
	done
	if [ "${#notes[@]}" -gt 0 ]; then
		echo
		printf -- '- %s\n' "${notes[@]}" | sort
	fi
} | tee "$BENCH_DIR/results.md"

say "tables also in $BENCH_DIR/results.md"
