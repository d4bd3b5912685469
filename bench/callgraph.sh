#!/usr/bin/env bash
# bench/callgraph.sh — callscope's call counts and arcs on real optimized
# programs against callgrind's, and prints a Markdown table.
#
#   SRC_ROOT=/path/to/unpacked/debian/sources bench/callgraph.sh
#
# Each program is built from its Debian source at -O2 -g -pg into objects,
# linked twice: with -pg (recorded by callscope) and without (glibc's mcount
# resolves the hooks and no gmon timer starts, so valgrind runs it; the
# code is the same).  callgrind follows jumps between functions, so its arcs
# count tail calls as calls by the function that jumped.  Compared: every
# function of the program callgrind saw called (calls equal or not) and
# every arc between two distinct functions (count equal, differing,
# missing from one side).  Names are compared demangled (c++filt), however
# each side prints them.
#
# Knobs (environment):
#   SRC_ROOT    folder holding lua5.4-*/, bzip2-*/, libzstd-*/ and
#               ninja-build-*/ (unpacked Debian sources; 'apt-get source
#               lua5.4 bzip2 libzstd ninja-build')
#   BENCH_DIR   scratch folder (default /tmp/callscope-bench); the sources
#               are copied there before building
#   CALLSCOPE   the CLI to test (default <repo>/build/callscope)
#   CALLSCOPE_LABEL   its name in the table (default: this tree's commit)
#   CALLSCOPE_BEFORE  a second CLI, e.g. an older build, shown beside it,
#   CALLSCOPE_BEFORE_LABEL  under this name (default "before")
#   PROGRAMS    which to run (default "lua bzip2 zstd cxx ninja"; ninja is
#               C++ from Debian's source, its dry run of a generated
#               build of 3,000 edges; zstdmt, not run by default, is
#               zstd with worker threads, some of whose counts depend on
#               how its threads took turns)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
SRC_ROOT=${SRC_ROOT:-$BENCH_DIR/src}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
CALLSCOPE_BEFORE=${CALLSCOPE_BEFORE:-}
PROGRAMS=${PROGRAMS:-lua bzip2 zstd cxx ninja}
W=$BENCH_DIR/callgraph
CFLAGS="-O2 -g -pg"

# shellcheck source=bench/build_real.sh
. "$HERE/build_real.sh"

say() { printf 'callgraph: %s\n' "$*" >&2; }
die() { printf 'callgraph: %s\n' "$*" >&2; exit 1; }

for tool in gcc g++ valgrind jq awk c++filt; do
	command -v "$tool" > /dev/null || die "'$tool' not found; install it (scripts/deps)"
done
[ -x "$CALLSCOPE" ] || die "'$CALLSCOPE' is not built; run make first"
mkdir -p "$W"

# source_of PATTERN: the unpacked source folder SRC_ROOT/PATTERN, copied
# into the scratch folder; prints the copy's path.
source_of() {
	local d
	for d in "$SRC_ROOT"/$1; do
		[ -d "$d" ] || continue
		rm -rf "$W/src/$(basename "$d")"
		mkdir -p "$W/src"
		cp -r "$d" "$W/src/"
		echo "$W/src/$(basename "$d")"
		return 0
	done
	die "no '$1' under '$SRC_ROOT' (set SRC_ROOT to where the Debian sources are unpacked)"
}

# compile OUT_DIR CC FLAGS... -- SOURCES...: objects into OUT_DIR.
compile() {
	local out=$1 cc=$2 flags=() f
	shift 2
	while [ "$1" != "--" ]; do flags+=("$1"); shift; done
	shift
	mkdir -p "$out"
	for f in "$@"; do
		nice -n 10 "$cc" $CFLAGS "${flags[@]}" -c -o "$out/$(basename "${f%.*}").o" "$f" || return 1
	done
}

# link NAME CC LIBS...: NAME (-pg) and NAME-nogmon from objects in $W/NAME.o.d
link() {
	local name=$1 cc=$2
	shift 2
	"$cc" -pg -o "$W/$name" "$W/$name.o.d"/*.o "$@"
	"$cc" -o "$W/$name-nogmon" "$W/$name.o.d"/*.o "$@"
}

cg_build_lua() {
	local s
	s=$(source_of 'lua5.4-*')/src
	# Debian's luaconf.h includes a generated header naming the
	# multiarch triplet (as bench/run.sh makes it)
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch || echo x86_64-linux-gnu)" \
		> "$s/lua5.4-deb-multiarch.h"
	compile "$W/lua.o.d" gcc -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -- \
		$(ls "$s"/*.c | grep -v '/luac\.c$')
	link lua gcc -lm -ldl
}

cg_build_bzip2() {
	local s
	s=$(source_of 'bzip2-*')
	compile "$W/bzip2.o.d" gcc -D_FILE_OFFSET_BITS=64 -- \
		"$s"/{blocksort,huffman,crctable,randtable,compress,decompress,bzlib,bzip2}.c
	link bzip2 gcc
}

# zstd_as NAME FLAGS...: zstd's command with its library, compiled and
# linked with FLAGS too
zstd_as() {
	local name=$1 s
	shift
	s=$(source_of 'libzstd-*')
	compile "$W/$name.o.d" gcc "$@" -DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 \
		-DZSTD_NOBENCH -DZSTD_NODICT -DZSTD_NOTRACE -I"$s/lib" -I"$s/lib/common" -- \
		"$s"/lib/common/*.c "$s"/lib/compress/*.c "$s"/lib/decompress/*.c \
		"$s"/programs/{zstdcli,fileio,fileio_asyncio,util,timefn,datagen}.c
	link "$name" gcc "$@"
}

cg_build_zstd() {
	zstd_as zstd
}

# zstd with two worker threads and its I/O threads.  How often some
# functions run depends on how the threads took turns (a full queue
# retried, a context made while the pool had none free), which differs
# from run to run and more under valgrind, which runs one thread at a
# time: those counts differ and the rest are equal.
cg_build_zstdmt() {
	zstd_as zstdmt -DZSTD_MULTITHREAD -pthread
}

cg_build_cxx() {
	compile "$W/cxx.o.d" g++ -- "$HERE/progs/cxx_work.cc"
	link cxx g++ -lpthread
}

# ninja as its configure.py builds it (bench/build_real.sh), and its project
cg_build_ninja() {
	local s
	s=$(source_of 'ninja-build-*')
	# shellcheck disable=SC2046
	compile "$W/ninja.o.d" g++ "${NINJA_FLAGS[@]}" -- $(ninja_sources "$s")
	link ninja g++
	write_ninja_project "$W/ninja-project" 100
}

# An input for the compressors: text with some repetition, 2 MB.
make_input() {
	[ -f "$W/input.txt" ] && return 0
	awk 'BEGIN { srand(7); for (i = 0; i < 60000; i++) printf "line %d of %d: %s %x\n", i, int(rand() * 1000), (rand() < 0.5 ? "alpha beta gamma" : "delta"), int(rand() * 65536) }' \
		> "$W/input.txt"
}

# args_of NAME: the program's command line (one word per line).
args_of() {
	case $1 in
	lua) printf '%s\n' "$HERE/progs/work.lua" 18 2 ;;
	bzip2) printf '%s\n' -k -f -c "$W/input.txt" ;;
	zstd) printf '%s\n' -q -f -c -3 "$W/input.txt" ;;
	zstdmt) printf '%s\n' -q -f -c -3 -T2 --zstd=wlog=17 "$W/input.txt" ;;
	cxx) printf '%s\n' 2000 ;;
	ninja) printf '%s\n' -C "$W/ninja-project" -n ;;
	esac
}

# callscope_side CLI DATA PREFIX: PREFIX.arcs and PREFIX.calls from DATA.
callscope_side() {
	"$1" graph -i "$2" --json |
		jq -r '.arcs[] | select(.caller != .callee and .caller != "<spontaneous>") |
			"\(.caller) \(.callee) \(.count)"' | c++filt | sort > "$3.arcs"
	"$1" report -i "$2" --json | jq -r '.functions[] | "\(.name) \(.calls)"' | c++filt |
		sort > "$3.calls"
}

# compare WANT GOT: "equal differing missing extra" over lines "KEY... COUNT".
compare() {
	awk 'NR == FNR { k = $0; sub(/ [0-9]+$/, "", k); want[k] = $NF; next }
		{ k = $0; sub(/ [0-9]+$/, "", k); got[k] = $NF }
		END {
			for (k in want) if (k in got) { if (want[k] == got[k]) eq++; else ne++ } else miss++
			for (k in got) if (!(k in want)) extra++
			printf "%d %d %d %d\n", eq, ne, miss, extra
		}' "$1" "$2"
}

# row NAME LABEL PREFIX: one line of the table for callscope's PREFIX side.
row() {
	local name=$1 label=$2 p=$3 fc ac
	fc=$(compare "$W/$name.cg.calls" "$p.calls")
	ac=$(compare "$W/$name.cg.arcs" "$p.arcs")
	set -- $fc
	local feq=$1 fne=$2 fmiss=$3
	set -- $ac
	printf '| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d |\n' "$name" "$label" \
		"$(wc -l < "$W/$name.cg.calls")" "$feq" "$fne" "$fmiss" \
		"$(wc -l < "$W/$name.cg.arcs")" "$1" "$2" "$(($3 + $4))"
}

make_input
echo "| program | callscope | functions (callgrind) | calls equal | calls differ | not seen | arcs (callgrind) | arcs equal | counts differ | arcs on one side only |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in $PROGRAMS; do
	say "building $name"
	"cg_build_$name" > "$W/$name.build.log" 2>&1 || die "building $name failed; see $W/$name.build.log"
	mapfile -t args < <(args_of "$name")
	say "running $name under callgrind"
	(cd "$W" && valgrind --tool=callgrind --demangle=no --callgrind-out-file="$W/$name.cg.out" \
		"./$name-nogmon" "${args[@]}" > /dev/null 2> "$W/$name.cg.log") ||
		die "callgrind failed on $name; see $W/$name.cg.log"
	awk -v obj="/$name-nogmon" -f "$ROOT/scripts/callgrind-arcs.awk" "$W/$name.cg.out" |
		c++filt | sort > "$W/$name.cg.arcs"
	awk -v obj="/$name-nogmon" -v what=calls -f "$ROOT/scripts/callgrind-arcs.awk" \
		"$W/$name.cg.out" | c++filt | sort > "$W/$name.cg.calls"
	for side in after before; do
		cli=$CALLSCOPE
		[ $side = before ] && cli=$CALLSCOPE_BEFORE
		[ -n "$cli" ] || continue
		# the program's own functions only, as callgrind's side has them
		rec_opts=()
		"$cli" record --help 2>&1 | grep -q -- --no-libcall && rec_opts=(--no-libcall)
		(cd "$W" && "$cli" record "${rec_opts[@]}" -o "$W/$name.$side.data" -- "./$name" "${args[@]}" \
			> /dev/null 2>&1) ||
			die "callscope record failed on $name"
		callscope_side "$cli" "$W/$name.$side.data" "$W/$name.$side"
		label=${CALLSCOPE_LABEL:-$(git -C "$ROOT" describe --always --dirty 2> /dev/null || echo "$cli")}
		[ $side = before ] && label=${CALLSCOPE_BEFORE_LABEL:-before}
		row "$name" "$label" "$W/$name.$side"
	done
done
