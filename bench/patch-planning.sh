#!/usr/bin/env bash
# bench/patch-planning.sh — what `record --patch` costs before a program's
# first instruction: reading the program, disassembling every function to
# find the branches into each entry's window, and choosing each patch.
# Large stripped programs from Debian (cmake's 9 MB of C++ code, python3,
# xz) are recorded with a command that does almost nothing, so the run is
# nearly all planning.  Each variant runs once a round, REPEAT interleaved
# rounds; medians of wall and CPU time.  uftrace's `-P .` on the same
# command is shown beside it for scale: on a stripped program it finds no
# symbols to patch (it reads .symtab, else .dynsym), so it plans less.
#
# Knobs: BENCH_DIR (default /tmp/callscope-bench-patch-planning),
# CALLSCOPE, BASELINE (another build's callscope, measured in the same
# rounds), REPEAT (default 5).  Prints Markdown.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-patch-planning}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
BASELINE=${BASELINE:-}
REPEAT=${REPEAT:-5}
. "$HERE/median.sh"

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"
# Debian's own builds (not a python3 of pyenv or a venv earlier in PATH)
programs=()
for p in /usr/bin/cmake /usr/bin/python3 /usr/bin/xz; do
	[ -x "$p" ] && programs+=("$(readlink -f "$p")")
done
[ ${#programs[@]} -gt 0 ] || { echo "patch-planning: none of cmake, python3, xz is installed" >&2; exit 1; }
variants=(plain callscope)
[ -n "$BASELINE" ] && variants+=(baseline)
command -v uftrace > /dev/null && variants+=(uftrace)

# the command that does almost nothing, per program
args_of() {
	case ${1##*/} in
	python3*) echo -c pass ;;
	*) echo --version ;;
	esac
}

PROG=
# run VARIANT: prints "CPU WALL" in seconds, the run's children included
run() {
	local bin=$PROG args cmd
	args=$(args_of "$PROG")
	case $1 in
	plain) cmd=("$bin" $args) ;;
	callscope) cmd=("$CALLSCOPE" record --patch -o cs.data -- "$bin" $args) ;;
	baseline) cmd=("$BASELINE" record --patch -o cs.data -- "$bin" $args) ;;
	uftrace) cmd=(uftrace record -P . -d uftrace.data "$bin" $args) ;;
	esac
	/usr/bin/time -f '%U %S %e' -o time.txt "${cmd[@]}" > /dev/null 2>&1 || true
	awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' time.txt
}

echo "| program | text | functions patched |$(printf ' %s |' "${variants[@]}")"
echo "| --- | ---: | ---: |$(printf ' ---: |%.0s' "${variants[@]}")"
for PROG in "${programs[@]}"; do
	declare -A CPU=() WALL=()
	rounds_cpu_wall run "${variants[@]}"
	text=$(size -A "$PROG" | awk '$1 == ".text" { printf "%d KB", $2 / 1024 }')
	# shellcheck disable=SC2046 # the arguments are words
	"$CALLSCOPE" record --patch -o cs.data -- "$PROG" $(args_of "$PROG") > /dev/null 2>&1 || true
	patched=$("$CALLSCOPE" info --json cs.data | jq -r '[.patch.objects[].patched] | add')
	row="| ${PROG##*/} | $text | $patched |"
	for v in "${variants[@]}"; do
		row+=" $(median "${WALL[$v]}") s wall, $(median "${CPU[$v]}") s CPU |"
	done
	echo "$row"
	unset CPU WALL
done
