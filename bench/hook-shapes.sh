#!/usr/bin/env bash
# bench/hook-shapes.sh — what the shape of an entry hook does to the
# program's own timer samples.  Each shape is an mcount built from
# bench/progs/mcount_shapes.S and preloaded over the -pg Lua build (no
# callscope); beside them run the plain build, glibc's own gmon, and
# callscope's --time-by=samples with each runtime given.  perf samples
# every run's process (cpu-clock); the program's samples are those whose
# PC lies in the Lua binary, the hook's those in the preloaded mcount,
# glibc's mcount or callscope's runtime.  A shape that leaves the
# program's samples and shares as in the plain run costs its time where
# a sampling profiler can count it apart; one that adds samples to the
# program pushes its cost into the functions it interrupts, one that
# takes samples away hides the program's work under its own.  Prints
# Markdown; measurements and what they showed are in bench/RESULTS.md.
#
# The machine may be shared: every round runs each variant once, in turn.
#
#   BENCH_DIR  builds and data (default /tmp/callscope-bench-hook-shapes);
#              the Lua source is looked for under BENCH_DIR/src as run.sh does
#   CALLSCOPE  the CLI (default <repo>/build/callscope)
#   RUNTIMES   "NAME=PATH ..." runtimes (libcallscope.so) to run as callscope
#              variants (default: callscope=<the CLI's own>)
#   SHAPES     the mcount shapes to run (default: all of SHAPE_FLAGS below)
#   ROUNDS     rounds (default 5)
#   FREQ       perf's samples per second (default 4999), callscope's too
#   LUA_ARGS   work.lua arguments (default "27 100")
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-hook-shapes}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
RUNTIMES=${RUNTIMES:-callscope=$(dirname "$CALLSCOPE")/libcallscope.so}
ROUNDS=${ROUNDS:-5}
FREQ=${FREQ:-4999}
LUA_ARGS=${LUA_ARGS:-27 100}

# name -> the flags of mcount_shapes.S
declare -A SHAPE_FLAGS=(
	[bare]=""
	[work2]="-DWORK=2"
	[work10]="-DWORK=10"
	[nops16]="-DNOPS=16"
	[nest]="-DFRAME=8 -DNEST=1"
	[save7]="-DFRAME=56 -DNSAVE=7"
	[save8]="-DFRAME=72 -DNSAVE=8"
	[glibcshape]="-DFRAME=56 -DNSAVE=7 -DARGS -DNEST=1"
	[glibc_lock]="-DFRAME=56 -DNSAVE=7 -DARGS -DNEST=1 -DCLOCK"
	[glibc_ic]="-DFRAME=56 -DNSAVE=7 -DARGS -DNEST=1 -DCIC=16"
	[glibc_br]="-DFRAME=56 -DNSAVE=7 -DARGS -DNEST=1 -DCBR"
	[csshape]="-DFRAME=72 -DNSAVE=8 -DGLOBAL -DARGS -DNEST=1"
)
read -r -a shapes <<<"${SHAPES:-bare work2 work10 nops16 nest save7 save8 glibcshape glibc_lock glibc_ic glibc_br csshape}"

# shellcheck source=bench/build_lua.sh
. "$HERE/build_lua.sh"
lua_plain_and_pg || exit 1

declare -A RUNTIME
variants=(plain gmon)
for s in "${shapes[@]}"; do
	[ -n "${SHAPE_FLAGS[$s]+set}" ] || { say "no shape '$s'; the shapes are: ${!SHAPE_FLAGS[*]}"; exit 1; }
	# shellcheck disable=SC2086
	gcc -shared -nostdlib ${SHAPE_FLAGS[$s]} -o "$BIN/mcount-$s.so" "$HERE/progs/mcount_shapes.S"
	variants+=("$s")
done
for r in $RUNTIMES; do
	[ -f "${r#*=}" ] || { say "no runtime '${r#*=}' (RUNTIMES is NAME=PATH ...)"; exit 1; }
	RUNTIME[${r%%=*}]=${r#*=}
	variants+=("${r%%=*}")
done

cmd_of() {
	case $1 in
	plain) echo "$BIN/lua-plain $WORK $LUA_ARGS" ;;
	gmon) echo "$BIN/lua-pg $WORK $LUA_ARGS" ;;
	*) if [ -n "${RUNTIME[$1]+set}" ]; then
		echo "env CALLSCOPE_LIB=${RUNTIME[$1]} $CALLSCOPE record --no-libcall --mode=count" \
			"--time-by=samples --freq=$FREQ -o $RUN/$1.data -- $BIN/lua-pg $WORK $LUA_ARGS"
	else
		echo "env LD_PRELOAD=$BIN/mcount-$1.so $BIN/lua-pg $WORK $LUA_ARGS"
	fi ;;
	esac
}

say "$ROUNDS interleaved rounds of: ${variants[*]}"
rm -f "$RUN"/shape-*.txt
for ((r = 0; r < ROUNDS; r++)); do
	for v in "${variants[@]}"; do
		read -r -a cmd <<<"$(cmd_of "$v")"
		(cd "$RUN" && perf record -q -e cpu-clock -F "$FREQ" -o "shape.data" -- "${cmd[@]}" \
			>/dev/null 2>"$RUN/shape-$v.err") || { say "$v failed: see $RUN/shape-$v.err"; exit 1; }
		perf script -i "$RUN/shape.data" -F ip,sym,dso 2>/dev/null > "$RUN/shape-$v-$r.txt"
	done
done

{
	echo "## Hook shapes on Lua — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Linux $(uname -r); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "\`lua work.lua $LUA_ARGS\`, $ROUNDS interleaved rounds, perf -e cpu-clock -F $FREQ on each run's process; shares are of the program's samples."
	echo
	# the objects whose samples are the hook's: the shapes and the runtimes
	HOOK_OBJECTS="$BIN/mcount- ${RUNTIME[*]}" python3 - "$RUN" "${variants[@]}" <<'PY'
import collections, glob, os, re, sys

run, variants = sys.argv[1], sys.argv[2:]
HOOK_SYMS = ("mcount", "_mcount", "__mcount_internal")
HOOK_OBJECTS = os.environ["HOOK_OBJECTS"].split()


def runs(v):
    """Per run: the program's samples by function, and the hook's count."""
    out = []
    for path in sorted(glob.glob("%s/shape-%s-*.txt" % (run, v))):
        funcs, hook = collections.Counter(), 0
        for line in open(path):
            parts = line.split()
            if len(parts) < 3:
                continue
            dso, sym = parts[-1], re.sub(r"\+0x.*", "", parts[1])
            if "/lua-" in dso:
                funcs[sym] += 1
            elif sym in HOOK_SYMS or any(o in dso for o in HOOK_OBJECTS):
                hook += 1
        out.append((funcs, hook))
    return out


data = {v: runs(v) for v in variants}
pooled = {}
for v in variants:
    funcs = collections.Counter()
    for f, _ in data[v]:
        funcs.update(f)
    pooled[v] = funcs
plain = pooled["plain"]
plain_n = sum(plain.values())
plain_per_run = plain_n / len(data["plain"])
top = [s for s, _ in plain.most_common(10)]
print("| variant | program samples a run, against plain | hook samples a run | %s %% of the program's | largest top-10 difference from plain (points) |" % top[0])
print("| --- | ---: | ---: | ---: | --- |")
for v in variants:
    funcs, n = pooled[v], sum(pooled[v].values())
    per_run = n / len(data[v])
    hook = sum(h for _, h in data[v]) / len(data[v])
    share = lambda c, t, s: 100.0 * c[s] / t if t else 0.0
    worst = max(top, key=lambda s: abs(share(funcs, n, s) - share(plain, plain_n, s)))
    print("| %s | %.0f (%+.0f %%) | %.0f | %.1f | %.1f (%s) |" % (
        v, per_run, 100.0 * (per_run - plain_per_run) / plain_per_run, hook,
        share(funcs, n, top[0]), abs(share(funcs, n, worst) - share(plain, plain_n, worst)), worst))
PY
} | tee "$BENCH_DIR/hook-shapes.md"
