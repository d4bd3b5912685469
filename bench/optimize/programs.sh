#!/usr/bin/env bash
# bench/optimize/programs.sh — callscope's link order against lld's own
# orderings on real programs from Debian source.
#
#   bench/setup.sh && make && bench/optimize/programs.sh       (about 20 minutes on 2 cores, the first
#                                            run longer: it builds the programs twice)
#
# Each program (Lua 5.4, gawk, xz with its liblzma) is built -O2
# -ffunction-sections and linked by lld 19.  Trained on one input, the
# release binary is relinked in these orders:
#
#   default      lld's own order (the objects' order)
#   executed     the executed functions first, in their default order
#                ('callscope optimize --algorithm=executed')
#   lld-c3       lld's C3 (--call-graph-profile-sort=hfsort) fed the call
#                graph callgrind measured on the training input
#   lld-cdsort   lld's cache-directed sort (cdsort), the same graph
#   callscope    'callscope optimize --cache-size=32K' from a callscope
#                recording of the training input (PROFILE below)
#
# and measured on a held-out input by 'callscope optimize --measure': I1
# misses simulated by cachegrind for a 32 KiB 8-way 64-byte cache, mean and
# range over code offsets (padding in front of the code, spread over the
# 4 KiB one cache way spans), and the 4 KiB pages holding 90 % of the
# executed instructions.  Markdown on stdout, a copy in
# $BENCH_DIR/programs/results.md.
#
# Knobs (environment):
#   BENCH_DIR   scratch folder (default /tmp/callscope-bench); nothing is
#               written in the repository
#   SRC_DIR     where the Debian sources are unpacked (default
#               $BENCH_DIR/src, where bench/setup.sh puts them): lua5.4-*,
#               gawk-*, xz-utils-*; each is copied before building
#   PROGRAMS    which programs (default "lua gawk xz")
#   PROFILE     what callscope is trained on: "trace" (default: a -pg build
#               of the same sources, exact calls, as complete as callgrind's
#               graph) or "sample" (the release binary itself, sampled with
#               DWARF stacks at FREQ Hz: no second build, but functions that
#               run too briefly to be sampled stay out of the order)
#   FREQ        samples per second for PROFILE=sample (default 20000)
#   OPTIONS     'callscope optimize' options for the callscope layout
#               (default: none)
#   VARIANTS    more callscope layouts to measure, as NAME=OPTION,OPTION...
#               separated by spaces, e.g. "c3=--algorithm=c3" (default: none);
#               each is the row callscope-NAME
#   OFFSETS     code offsets in bytes (default: eight, 0 to 3648, about 520 apart)
#   CALLSCOPE   the CLI (default <repo>/build/callscope)
#   CALLGRIND_GRAPH  callgrind's call graph as "caller callee count"
#               (default <repo>/../shared/tools/callgrind-graph)
#   JOBS        cachegrind runs at once (default: CPUs)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
SRC_DIR=${SRC_DIR:-$BENCH_DIR/src}
PROGRAMS=${PROGRAMS:-lua gawk xz}
PROFILE=${PROFILE:-trace}
FREQ=${FREQ:-20000}
OPTIONS=${OPTIONS:-}
VARIANTS=${VARIANTS:-}
OFFSETS=${OFFSETS:-0,528,1040,1568,2080,2608,3120,3648}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
CALLGRIND_GRAPH=${CALLGRIND_GRAPH:-$ROOT/../shared/tools/callgrind-graph}
JOBS=${JOBS:-$(nproc)}
OUT=$BENCH_DIR/programs

say() { printf 'programs-bench: %s\n' "$*" >&2; }
die() { printf 'programs-bench: %s\n' "$*" >&2; exit 1; }

[ -x "$CALLSCOPE" ] || die "'$CALLSCOPE' not found; run 'make' at the repository root"
[ -x "$CALLGRIND_GRAPH" ] || die "'$CALLGRIND_GRAPH' not found; set CALLGRIND_GRAPH"
command -v valgrind >/dev/null || die "valgrind is missing; run bench/setup.sh"
command -v ld.lld-19 >/dev/null || die "lld 19 is missing; install lld-19"
case $PROFILE in sample | trace) ;; *) die "PROFILE is sample or trace, not '$PROFILE'" ;; esac
mkdir -p "$OUT/lld"
ln -sf "$(command -v ld.lld-19)" "$OUT/lld/ld.lld"
LINK=(gcc -B "$OUT/lld" -fuse-ld=lld)
CFLAGS="-O2 -g -ffunction-sections"

# The source of PROGRAM's Debian package, copied into DIR/src once.
copy_source() {	# PATTERN DIR
	local src
	src=$(find "$SRC_DIR" -maxdepth 1 -type d -name "$1" | sort | tail -1)
	[ -n "$src" ] || die "no '$1' under '$SRC_DIR'; unpack it with 'apt-get source'"
	[ -d "$2/src" ] || cp -a "$src" "$2/src"
}

# The first BYTES bytes of the files FILES... (sorted) into OUT_FILE.
concat() {	# BYTES OUT_FILE FILES...
	local bytes=$1 out=$2
	shift 2
	printf '%s\n' "$@" | sort | xargs cat >"$out.all"
	head -c "$bytes" "$out.all" >"$out"
	rm -f "$out.all"
}

# Each build_NAME fills OBJS (objects and archives, in link order) and LIBS,
# and builds the -pg copy PG_BIN when PROFILE=trace.  Each input_NAME writes
# the training and held-out inputs and sets TRAIN and HELDOUT (the
# program's arguments).
build_lua() {
	copy_source 'lua5.4-*' "$W"
	mkdir -p obj pg inc
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch || echo x86_64-linux-gnu)" \
		>inc/lua5.4-deb-multiarch.h
	OBJS=()
	for f in src/src/*.c; do
		b=$(basename "$f" .c)
		[ "$b" = luac ] && continue
		OBJS+=("obj/$b.o")
		for kind in obj pg; do
			[ $kind = pg ] && [ "$PROFILE" != trace ] && continue
			[ "$kind/$b.o" -nt "$f" ] && continue
			flags=()
			[ $kind = pg ] && flags=(-pg)
			# shellcheck disable=SC2086
			nice gcc $CFLAGS "${flags[@]}" -std=gnu99 -Iinc -DLUA_COMPAT_5_3 -DLUA_USE_LINUX \
				-c "$f" -o "$kind/$b.o" &
			while [ "$(jobs -r | wc -l)" -ge "$JOBS" ]; do wait -n; done
		done
	done
	wait
	LIBS=(-lm -ldl)
	if [ "$PROFILE" = trace ]; then
		gcc -pg -o "$PG_BIN" "${OBJS[@]/#obj/pg}" "${LIBS[@]}"
	fi
}
input_lua() {
	TRAIN=("$ROOT/bench/progs/work.lua" 22 2)
	HELDOUT=("$HERE/heldout.lua" 1)
}

# An autotools program: configured and built in DIR/src (and in DIR/pg
# with -pg for PROFILE=trace).  CONFIGURE are its options, TARGET what make
# builds.
build_autotools() {	# PATTERN TARGET CONFIGURE...
	local pattern=$1 target=$2
	shift 2
	copy_source "$pattern" "$W"
	if [ ! -f src/.built ]; then
		(cd src && nice ./configure CFLAGS="$CFLAGS" "$@" && nice make -j"$JOBS" $target) \
			>log/build.out 2>&1 || die "building $W/src failed; see $W/log/build.out"
		touch src/.built
	fi
	if [ "$PROFILE" = trace ] && [ ! -f pg/.built ]; then
		[ -d pg ] || cp -a "$(find "$SRC_DIR" -maxdepth 1 -type d -name "$pattern" | sort | tail -1)" pg
		(cd pg && nice ./configure CFLAGS="$CFLAGS -pg" LDFLAGS=-pg "$@" &&
			nice make -j"$JOBS" $target) >log/build-pg.out 2>&1 ||
			die "building $W/pg failed; see $W/log/build-pg.out"
		touch pg/.built
	fi
}
build_gawk() {
	build_autotools 'gawk-*' "-C support all" --disable-nls --without-readline --without-mpfr \
		--disable-extensions
	(cd src && nice make gawk) >>log/build.out 2>&1 || die "building gawk failed"
	OBJS=(src/*.o src/support/libsupport.a)
	LIBS=(-lm)
	if [ "$PROFILE" = trace ]; then
		(cd pg && nice make gawk) >>log/build-pg.out 2>&1 || die "building gawk -pg failed"
		cp pg/gawk "$PG_BIN"
	fi
}
input_gawk() {
	concat 1200000 train.txt src/*.c
	concat 80000 heldout.txt src/support/*.c
	TRAIN=(-f "$HERE/train.awk" "$W/train.txt")
	HELDOUT=(-f "$HERE/heldout.awk" "$W/heldout.txt")
}
build_xz() {
	build_autotools 'xz-utils-*' "" --disable-shared --disable-nls --disable-threads \
		--disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-lzma-links \
		--disable-scripts --disable-doc
	OBJS=(src/src/xz/xz-*.o src/src/liblzma/.libs/liblzma.a)
	LIBS=()
	[ "$PROFILE" = trace ] && cp pg/src/xz/xz "$PG_BIN"
	return 0
}
input_xz() {
	concat 300000 train.txt src/src/liblzma/*/*.c
	concat 60000 heldout.txt src/src/xz/*.[ch] src/doc/*.txt
	TRAIN=(-c -6 "$W/train.txt")
	HELDOUT=(-c -6 "$W/heldout.txt")
}

# Links NAME (a binary in W) in the order of ORDER_FILE (none: lld's own).
link_order() {	# NAME [ORDER_FILE] [LINKER FLAGS...]
	local name=$1 order=${2:-}
	shift 2 || shift $#
	local flags=("$@")
	[ -n "$order" ] && flags+=(-Wl,--symbol-ordering-file="$order")
	"${LINK[@]}" -o "$name" "${OBJS[@]}" "${LIBS[@]}" "${flags[@]}" 2>>log/link.out ||
		die "linking $W/$name failed; see $W/log/link.out"
}

# The order lld chose from a call graph, as a symbol ordering file: the
# functions of the graph in the address order lld gave them (lld prints its
# C3 order itself, but not its cdsort order).
lld_order() {	# SORT GRAPH ORDER_FILE
	link_order "lld-$1.tmp" "" -Wl,--call-graph-ordering-file="$2" \
		-Wl,--call-graph-profile-sort="$1"
	awk '{ print $1; print $2 }' "$2" | sort -u >graph-functions.txt
	nm -n --defined-only "lld-$1.tmp" | awk '$2 == "t" || $2 == "T" { print $3 }' |
		grep -Fx -f graph-functions.txt >"$3" || true
	rm -f "lld-$1.tmp"
}

run_program() {	# NAME
	local p=$1
	W=$OUT/$p
	PG_BIN=$W/$p-pg
	mkdir -p "$W/log"
	cd "$W"
	say "$p: building"
	"build_$p"
	"input_$p"
	link_order "$p-default" "" -Wl,-Map="$p-default.map"

	say "$p: training (callscope $PROFILE, and callgrind for lld's graph)"
	local rec=(--mode=sample --stack=dwarf --freq="$FREQ")
	local trained=./$p-default
	if [ "$PROFILE" = trace ]; then
		# Sampled too, for the weights that count samples.
		rec=(--mode=both --freq="$FREQ")
		trained=$PG_BIN
	fi
	"$CALLSCOPE" record "${rec[@]}" -o train.data -- "$trained" "${TRAIN[@]}" \
		>log/train.out 2>&1 || die "recording $p failed; see $W/log/train.out"
	valgrind --tool=callgrind --callgrind-out-file=callgrind.out "./$p-default" "${TRAIN[@]}" \
		>log/callgrind.out 2>&1 || die "callgrind on $p failed; see $W/log/callgrind.out"
	"$CALLGRIND_GRAPH" callgrind.out --arcs --object "/$p-default" >callgrind.cg

	local layouts=(default executed lld-c3 lld-cdsort callscope) v opts
	declare -A variant=([executed]=--algorithm=executed [callscope]="$OPTIONS")
	for v in $VARIANTS; do
		layouts+=("callscope-${v%%=*}")
		variant[callscope-${v%%=*}]=${v#*=}
	done
	for l in "${layouts[@]}"; do
		case $l in
		default) continue ;;
		lld-c3) lld_order hfsort callgrind.cg "$l.order" ;;
		lld-cdsort) lld_order cdsort callgrind.cg "$l.order" ;;
		*)
			IFS=, read -r -a opts <<<"${variant[$l]}"
			"$CALLSCOPE" optimize -i train.data --binary "$p-default" --map "$p-default.map" \
				--cache-size=32K "${opts[@]}" -o "$l" >"log/optimize-$l.out" 2>&1 ||
				die "callscope optimize failed; see $W/log/optimize-$l.out"
			;;
		esac
		link_order "$p-$l" "$l.order"
	done

	# Relinks a layout with the padding object in front of its code.
	{
		echo '#!/bin/sh'
		echo 'set -e'
		printf 'cd %q\n' "$W"
		echo 'name=$(basename "$CALLSCOPE_BINARY")'
		echo 'flags='
		printf 'if [ "$name" != %q ]; then\n' "$p-default"
		printf '\t{ echo "$CALLSCOPE_PAD_SYMBOL"; cat "${name#%s-}.order"; } >"$CALLSCOPE_OUT.order"\n' "$p"
		echo '	flags="-Wl,--symbol-ordering-file=$CALLSCOPE_OUT.order"'
		echo 'fi'
		printf 'exec %s -o "$CALLSCOPE_OUT" "$CALLSCOPE_PAD_OBJECT" %s %s $flags\n' \
			"${LINK[*]}" "${OBJS[*]}" "${LIBS[*]:-}"
	} >relink.sh
	chmod +x relink.sh

	say "$p: measuring ${#layouts[@]} layouts on the held-out input at offsets $OFFSETS"
	local bins=()
	for l in "${layouts[@]}"; do bins+=("$p-$l"); done
	"$CALLSCOPE" optimize --measure "${bins[@]}" --relink=./relink.sh -j "$JOBS" \
		--offsets="$OFFSETS" --cache=32K,8,64 --json -- "${HELDOUT[@]}" \
		>measure.json 2>log/measure.err || die "measuring $p failed; see $W/log/measure.err"
	if [ "$p" = lua ]; then
		echo "| $p | trained on \`work.lua ${TRAIN[*]:1}\`, measured on \`heldout.lua ${HELDOUT[*]:1}\` | | | | |" >row-head.md
	else
		echo "| $p | trained on \`$p ${TRAIN[*]##*/}\`, measured on \`$p ${HELDOUT[*]##*/}\` | | | | |" >row-head.md
	fi
	jq -r --arg p "$p" '
		def fmt: tostring | explode | reverse | [recurse(if length > 3 then .[3:] else empty end) | .[0:3]] | map(reverse) | reverse | map(implode) | join(",");
		def n: . + 0.5 | floor | fmt;
		def pct: (if . >= 0 then "+" else "" end) + ((. * 10 | round) / 10 | tostring) + "%";
		(.binaries[] | select(.path == $p + "-lld-c3") | .caches[0]) as $c3 |
		.binaries[] |
		"| \($p) | \(.path | sub("^" + $p + "-"; "")) | \(.instructions | n) | \(.caches[0].mean | n) [\(.caches[0].min | n)–\(.caches[0].max | n)] | \(.caches[0].change_pct | pct) | \(((.caches[0].mean - $c3.mean) / $c3.mean * 100) | pct) | \(if .caches[0].max < $c3.min then "below" elif .caches[0].min > $c3.max then "above" else "overlap" end) | \(.pages90) |"
	' measure.json >rows.md
}

for p in $PROGRAMS; do
	case $p in lua | gawk | xz) ;; *) die "unknown program '$p' (lua, gawk or xz)" ;; esac
	run_program "$p"
done

{
	echo "## Run: link orders on real programs — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Command: \`bench/setup.sh && make && bench/optimize/programs.sh\` (PROGRAMS=\"$PROGRAMS\" PROFILE=$PROFILE FREQ=$FREQ OFFSETS=$OFFSETS OPTIONS=\"$OPTIONS\" VARIANTS=\"$VARIANTS\")."
	echo "Machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)."
	echo "Tools: $(gcc --version | head -1); $(ld.lld-19 --version | head -1); $(valgrind --version); callscope $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')."
	echo "I1 misses: cachegrind 32K/8/64 on the held-out input, mean over the offsets [min–max];"
	echo "against lld's default order and against lld's C3; 'range vs C3' says whether the layout's range lies below, above or across C3's."
	echo
	echo "| program | layout | instructions | I1 misses 32K/8/64 | vs default | vs lld-c3 | range vs C3 | pages for 90% |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |"
	for p in $PROGRAMS; do cat "$OUT/$p/rows.md"; done
	echo
	for p in $PROGRAMS; do sed 's/^| \([a-z]*\) | \(.*\) | | | | |$/- \1: \2/' "$OUT/$p/row-head.md"; done
} | tee "$OUT/results.md"
