# Shared helpers for the end-to-end TAP tests.  Each test script sources
# this, builds the programs it needs from tests/progs into its own
# temporary directory, runs them through the real CLI and checks what the
# reports say.  Every test runs isolated (its own directory) and under a
# time limit, so a hang fails the test instead of the suite.

set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# the build under test: make's O= directory (scripts/test-sanitized.sh
# points it at the sanitizer build)
BUILD=$(cd "$ROOT" && cd "${CALLSCOPE_BUILD:-build}" && pwd)
CS="$BUILD/callscope"
# preloaded, makes file I/O fail on demand (tests/inject/fail_io.c)
FAIL_IO="$BUILD/tests/libfail_io.so"
# preloaded, delays the opening of the main thread's perf event by another
# thread (tests/inject/slow_perf_open.c)
SLOW_PERF_OPEN="$BUILD/tests/libslow_perf_open.so"
# preloaded, refuses perf events that would count the kernel's time, as
# perf_event_paranoid 2 does for a user (tests/inject/user_only_perf.c)
USER_ONLY_PERF="$BUILD/tests/libuser_only_perf.so"
# preloaded, makes the main thread's periodic timers signal once only
# (tests/inject/stalled_timer.c)
STALLED_TIMER="$BUILD/tests/libstalled_timer.so"
# preloaded, makes the control thread's walks of the loaded objects hold
# the loader's lock longer (tests/inject/slow_loader_walk.c)
SLOW_LOADER_WALK="$BUILD/tests/libslow_loader_walk.so"
# preloaded, makes each CLOCK_MONOTONIC reading a millisecond later than
# the one before (tests/inject/clock_creep.c)
CLOCK_CREEP="$BUILD/tests/libclock_creep.so"
# preloaded, holds a CLOCK_MONOTONIC reading after a quiet stretch 20 ms
# on each side (tests/inject/clock_stall.c)
CLOCK_STALL="$BUILD/tests/libclock_stall.so"
# needs_shims FILE...: the preloaded shims a test depends on are built.  A
# missing one would be skipped by the loader with a warning and the test
# would check a run without its fault: stop with the command that builds it.
needs_shims() {
	for shim in "$@"; do
		[ -f "$shim" ] && continue
		echo "Bail out! $shim is not built: run 'make shims' before this test"
		exit 1
	done
}
PROGS="$ROOT/tests/progs"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/callscope-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

TEST_COUNT=0
TEST_FAILED=0

plan() { echo "1..$1"; }

ok() {
	TEST_COUNT=$((TEST_COUNT + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TEST_COUNT - $2"
	else
		echo "not ok $TEST_COUNT - $2"
		TEST_FAILED=$((TEST_FAILED + 1))
	fi
}

# is GOT EXPECTED NAME
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		# on stderr, as TAP's diagnostics go: prove shows them without -v,
		# so a failure in a full run says what it saw
		echo "#   got:      '$1'" >&2
		echo "#   expected: '$2'" >&2
	fi
}

skip() {
	TEST_COUNT=$((TEST_COUNT + 1))
	echo "ok $TEST_COUNT # skip $1"
}

# Runs a command under a time limit (default 60 s).
limited() { timeout -k 5 "${LIMIT:-60}" "$@"; }

# fd_limit_with_room SOFT [ROOM]: the soft descriptor limit set to SOFT,
# at least ROOM (default 1) below the hard one, so that the runtime has room
# for its descriptors above it (runtime/fd_above_limit.c); the whole test
# is skipped where the hard limit is lower.  Call it before plan.
fd_limit_with_room() {
	hard=$(ulimit -Hn)
	[ "$hard" = unlimited ] || [ "$hard" -ge "$(($1 + ${2:-1}))" ] ||
		{ echo "1..0 # SKIP the hard descriptor limit ($hard) leaves no room of ${2:-1} above $1"; exit 0; }
	ulimit -Sn "$1"
}

# build_prog SOURCE OUTPUT FLAGS...: compiles tests/progs/SOURCE.c.
build_prog() {
	src=$1
	out=$2
	shift 2
	cc -g "$@" -o "$out" "$PROGS/$src.c" -lpthread
}

# gprof_program SEED OPT OUTPUT: the program tests/progs/gprof_gen.c
# writes for SEED (its source kept as pSEED.c), built with -pg at -OOPT.
gprof_program() {
	[ -x gen ] || cc -O2 -o gen "$PROGS/gprof_gen.c" || return 1
	./gen "$1" > "p$1.c" && gcc -w -g -pg -O"$2" -o "$3" "p$1.c"
}

# gmon_of PROGRAM [OUT]: runs ./PROGRAM for the gmon.out it writes, which
# is moved to OUT when given.
gmon_of() {
	rm -f gmon.out
	limited "./$1" > /dev/null
	[ $# -lt 2 ] || mv gmon.out "$2"
}

# call_paths FILE: every call path of the tree with its calls, one per
# line.  Paths with no call are left out: --time-by=samples names code
# without hooks that a sample landed in (libc's wait4 under waitpid) as
# a path of its own with 0 calls, which a trace of the same run may or
# may not have sampled.
call_paths() {
	"$CS" tree -i "$1" --json | jq -r '
		def walk(p): (p + "/" + .name) as $q
			| (if .calls > 0 then "\($q) \(.calls)" else empty end), (.children[]? | walk($q));
		.tree.children[] | walk("")' | sort
}

# path_a_share FILE: the percentage of tests/progs/sample_hot's path_a and
# path_b total time that is path_a's (80 by construction), -1 with none
path_a_share() {
	"$CS" tree -i "$1" --json | jq '
		[.. | objects | select(.name == "path_a" or .name == "path_b") | .total_ns] as $t
		| ($t[0] + $t[1]) as $all | if $all > 0 then
		  ([.. | objects | select(.name == "path_a") | .total_ns] | add) * 100 / $all | floor
		  else -1 end'
}

# same_file WANT GOT NAME: a test that the two files are byte for byte
# the same; the start of their difference is shown when they are not.
same_file() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff "$1" "$2" | head -10 | sed 's/^/#   /' >&2
	fi
}

# calls_of DATA FUNCTION [report options]: the call count of FUNCTION.
calls_of() {
	data=$1
	fn=$2
	shift 2
	"$CS" report -i "$data" --json "$@" |
		jq -r --arg f "$fn" '[.functions[] | select(.name == $f) | .calls] | add // 0'
}

# The flag sets every hook kind is tested under.
HOOK_FLAGS_PG="-pg"
HOOK_FLAGS_FENTRY="-pg -mfentry"
HOOK_FLAGS_CYG="-finstrument-functions"

# build_hook_kind SOURCE OUTPUT KIND FLAGS...: builds tests/progs/SOURCE.c
# for KIND, one of the flag sets above or "patch" (no hooks: record patches
# the entries), and sets RECORD_OPT to what record needs for it.
build_hook_kind() {
	src=$1
	out=$2
	kind=$3
	shift 3
	if [ "$kind" = patch ]; then
		RECORD_OPT=--patch
		build_prog "$src" "$out" "$@"
	else
		RECORD_OPT=
		build_prog "$src" "$out" "$@" $kind
	fi
}

# skip_if_attach_refused RC ERR N: when record --pid exited RC, having
# said in the file ERR that it cannot sample (perf_event_open refused
# here), skips the test's N checks and ends it.
skip_if_attach_refused() {
	if [ "$1" -eq 0 ] || ! grep -q 'cannot sample' "$2"; then
		return 0
	fi
	for _ in $(seq "$3"); do
		skip "perf_event_open is not allowed here: $(head -n 1 "$2")"
	done
	done_testing
}

# attach_sampled OUT SECONDS WARMUP PROGRAM [ARG...]: PROGRAM (one of
# tests/progs' that run until a file "quit" appears) started in the
# background, sampled after WARMUP seconds by record --pid for SECONDS
# (its profile into OUT, its stderr into err.txt), then told to quit and
# waited for; returns record's exit status.
attach_sampled() {
	out=$1 seconds=$2 warmup=$3
	shift 3
	rm -f quit
	"$@" &
	prog=$!
	sleep "$warmup"
	limited "$CS" record --pid "$prog" --duration "$seconds" > "$out" 2> err.txt
	attach_rc=$?
	touch quit
	wait $prog
	return $attach_rc
}

done_testing() {
	[ "$TEST_FAILED" -eq 0 ]
	exit $?
}

# start_live_server: builds tests/progs/live_server.c with -pg, records it
# in the background with a private XDG_RUNTIME_DIR and --live (it starts
# no thread, so it would have no control socket without), and waits for
# its control socket.  Sets rec (the recorder's pid), sock and pid.
start_live_server() {
	build_prog live_server srv -pg -O1
	mkdir -m 700 xdg
	XDG_RUNTIME_DIR="$WORK/xdg"
	export XDG_RUNTIME_DIR
	LIMIT=60 limited "$CS" record --live -o s.data -- ./srv > out.txt 2> err.txt &
	rec=$!
	wait_live_socket
	wait_live_events 100
}

# wait_for_line FILE REGEX: waits (up to 15 s) until FILE, which a
# background command writes, has a line matching REGEX.
wait_for_line() {
	i=0
	while [ $i -lt 300 ] && ! grep -q "$2" "$1" 2> /dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
}

# wait_seen MODE: waits (up to 10 s) until the live server (see
# start_live_server) says in "seen" that it has taken up MODE, so no round
# of the mode before is under way.
wait_seen() {
	i=0
	while [ $i -lt 200 ] && [ "$(cat seen 2> /dev/null)" != "$1" ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# wait_live_events N: waits (up to 5 s) until process $pid has recorded N
# events, so that a test starts once the program is at work however late
# a loaded machine runs it.
wait_live_events() {
	i=0
	while [ $i -lt 100 ] &&
		[ "$("$CS" live "$pid" status 2> /dev/null | sed -n 's/^events=//p')" -lt "$1" ] 2> /dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
}

# wait_live_socket: waits (up to 10 s) for the first control socket in
# xdg/callscope; the runtime makes it before main() runs with record
# --live, else at the program's first thread.  Sets sock and pid.
wait_live_socket() {
	i=0
	while [ $i -lt 100 ] && ! ls xdg/callscope/*.sock > /dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	sock=$(ls xdg/callscope/*.sock 2> /dev/null | head -n 1)
	pid=$(basename "$sock" .sock)
}

# callgrind_arcs OUT OBJECT: "caller callee count" for every call between
# two distinct functions of OBJECT (a path suffix) in callgrind's OUT,
# sorted (see scripts/callgrind-arcs.awk).
callgrind_arcs() {
	awk -v obj="$2" -f "$ROOT/scripts/callgrind-arcs.awk" "$1" | sort
}

# callscope_arcs DATA: the same lines from callscope's call graph.
callscope_arcs() {
	"$CS" graph -i "$1" --json |
		jq -r '.arcs[] | select(.caller != .callee and .caller != "<spontaneous>") |
			"\(.caller) \(.callee) \(.count)"' | sort
}

# conserved DATA ALL NAME: the events DATA kept plus those it counted lost
# are the ALL events of a run that lost nothing.  Within 8: besides the
# calls, a run writes a few records of its own whose number varies with
# timing; a lost buffer's worth is thousands.  Both runs are recorded with
# --outside-freq=0: the samples beside a trace are events too, and their
# number follows the CPU time the run took, which load moves by dozens.
conserved() {
	n=$("$CS" info -i "$1" --json | jq '.events + .lost_events')
	d=$(( n - $2 ))
	ok $(( d < -8 || d > 8 )) "$3: kept + lost ($n) == the events of a run that lost nothing ($2)"
	# on stderr, as is() says what it saw
	[ $d -ge -8 ] && [ $d -le 8 ] ||
		echo "#   kept + lost: $n ($("$CS" info -i "$1" --json | jq -c '{events, lost_events}')), expected $2 ± 8" >&2
}
