#!/usr/bin/env bash
# bench/optimize/programs.sh — callscope's link order against lld's own
# orderings on real programs from Debian source.
#
#   bench/setup.sh && make && bench/optimize/programs.sh       (about 20 minutes on 2 cores, the first
#                                            run longer: it builds the programs twice)
#
# Each program is built -O2 -ffunction-sections and linked by lld 19:
#
#   lua      Lua 5.4's interpreter, with a fixed string-hash seed (below)
#   sqlite   SQLite's shell and library (the one-file amalgamation), on an
#            in-memory database
#   jq       jq 1.6 with its library, without regular expressions
#   tcl      Tcl 8.6's tclsh with its library, linked statically
#   gawk     gawk 5.2 (no function order moves its misses: see RESULTS.md)
#   xz       xz with its liblzma (nor its: its hot code fits the cache)
#
# Lua seeds its string hashes from the clock and from addresses, so each
# run of the same script takes other paths through its tables: the
# training graphs, and so the orders learnt from them, changed from one
# run to the next.  The benchmark's Lua is built with the seed fixed
# (-Dluai_makeseed(L)=...: lstate.c computes the seed only when the macro
# is not defined), so every run is the same run.
#
# Trained on one input, the release binary is relinked in these orders:
#
#   default      lld's own order (the objects' order)
#   executed     the executed functions first, in their default order
#                ('callscope optimize --algorithm=executed')
#   lld-c3       lld's C3 (--call-graph-profile-sort=hfsort) fed the call
#                graph callgrind measured on the training input
#   lld-cdsort   lld's cache-directed sort (cdsort), the same graph
#   callscope    'callscope optimize --cache-size=32K' from a callscope
#                recording of the training input (PROFILE below)
#   shuffled-N   a control: callscope's order with the functions that made
#                99 % of the training calls in their places and the others
#                shuffled among theirs (seed N): the same hot code, another
#                arrangement of the lukewarm code around it.  How far
#                it lies from callscope is what the arrangement alone moves
#                the misses; a difference between two orders smaller than
#                that says nothing about their designs, whatever the sign
#                test over the offsets says (the offsets move all the code
#                at once, never one function against another)
#
# and measured on a held-out input by 'callscope optimize --measure': I1
# misses simulated by cachegrind for a 32 KiB 8-way 64-byte cache, mean and
# range over code offsets (padding in front of the code, spread over the
# 4 KiB one cache way spans), the offsets where each layout has fewer and
# more misses than lld's C3 with the sign test's p (a paired comparison:
# every layout swings with the offsets, the comparison at each offset
# takes the shared swing out), and the 4 KiB pages holding 90 % of the
# executed instructions.  A win over C3 is called as --measure calls one:
# the ranges separate, or the sign test says p < 0.05.  Markdown on stdout, a copy in
# $BENCH_DIR/programs/results.md.
#
# Knobs (environment):
#   BENCH_DIR   scratch folder (default /tmp/callscope-bench); nothing is
#               written in the repository
#   SRC_DIR     where the Debian sources are unpacked (default
#               $BENCH_DIR/src, where bench/setup.sh puts them): lua5.4-*,
#               gawk-*, xz-utils-*; each is copied before building
#   PROGRAMS    which programs (default "lua sqlite tcl jq")
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
#   OFFSETS     code offsets in bytes (default: 32, 0 to 3472, 112 apart:
#               every 16-byte step within a 64-byte line, spread over the
#               4 KiB of one cache way; at 32 the sign test calls a
#               difference when 23 offsets agree)
#   CALLSCOPE   the CLI (default <repo>/build/callscope)
#   SHUFFLES    seeds of the shuffled-N controls (default "1"; "" for none)
#   JOBS        cachegrind runs at once (default: CPUs)
#   JQ_WORKLOAD jq's inputs: "suite" (default: trained on a quarter of
#               jq's own tests/jq.test, measured on heldout.jq over a
#               500-record catalogue, where the code of one record is
#               several times the cache) or "posts" (trained on a filter
#               over a 6,000-record catalogue, measured on group_by over
#               1,000 posts: the inputs before, whose per-record code fits
#               the cache, so that the offsets alone move its misses more
#               than any order does; RESULTS.md)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
SRC_DIR=${SRC_DIR:-$BENCH_DIR/src}
PROGRAMS=${PROGRAMS:-lua sqlite tcl jq}
PROFILE=${PROFILE:-trace}
FREQ=${FREQ:-20000}
OPTIONS=${OPTIONS:-}
VARIANTS=${VARIANTS:-}
SHUFFLES=${SHUFFLES-1}
OFFSETS=${OFFSETS:-$(seq -s, 0 112 3472)}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
JOBS=${JOBS:-$(nproc)}
JQ_WORKLOAD=${JQ_WORKLOAD:-suite}
OUT=$BENCH_DIR/programs

say() { printf 'programs-bench: %s\n' "$*" >&2; }
die() { printf 'programs-bench: %s\n' "$*" >&2; exit 1; }

[ -x "$CALLSCOPE" ] || die "'$CALLSCOPE' not found; run 'make' at the repository root"
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
# program's arguments), and TRAIN_MODE=count where a trace of the training
# run would be too large (PROFILE=trace only).
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
				'-Dluai_makeseed(L)=0x5eedu' -c "$f" -o "$kind/$b.o" &
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
	ABOUT="trained on \`work.lua 22 2\`, measured on \`heldout.lua 1\`"
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
# SQLite's shell on its amalgamation (sqlite3.c, made from the Debian
# source by its own makefile, which needs tclsh), one object each.
build_sqlite() {
	copy_source 'sqlite3-*' "$W"
	if [ ! -f src/sqlite3.c ]; then
		(cd src && nice ./configure --disable-tcl && nice make sqlite3.c shell.c) \
			>log/build.out 2>&1 || die "making $W/src/sqlite3.c failed; see $W/log/build.out"
	fi
	mkdir -p obj pg
	local f kind flags
	OBJS=(obj/sqlite3.o obj/shell.o)
	for f in sqlite3 shell; do
		for kind in obj pg; do
			[ $kind = pg ] && [ "$PROFILE" != trace ] && continue
			[ "$kind/$f.o" -nt "src/$f.c" ] && continue
			flags=()
			[ $kind = pg ] && flags=(-pg)
			# shellcheck disable=SC2086
			nice gcc $CFLAGS "${flags[@]}" -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
				-Isrc -c "src/$f.c" -o "$kind/$f.o" &
			while [ "$(jobs -r | wc -l)" -ge "$JOBS" ]; do wait -n; done
		done
	done
	wait
	LIBS=(-lm)
	if [ "$PROFILE" = trace ]; then
		gcc -pg -o "$PG_BIN" pg/sqlite3.o pg/shell.o "${LIBS[@]}"
	fi
}
input_sqlite() {
	TRAIN=(:memory: ".read $HERE/train.sql")
	HELDOUT=(:memory: ".read $HERE/heldout.sql")
	ABOUT="trained on \`sqlite3 :memory: '.read train.sql'\`, measured on \`.read heldout.sql\` (bench/optimize/)"
}

# jq 1.6: its configure is made with autoreconf; its builtins (written in
# jq) are compiled by jq at every start.
build_jq() {
	local kind pg_flags
	copy_source 'jq-*' "$W"
	for kind in src pg; do
		[ $kind = pg ] && [ "$PROFILE" != trace ] && continue
		[ -f $kind/.built ] && continue
		[ -d $kind ] || cp -a "$(find "$SRC_DIR" -maxdepth 1 -type d -name 'jq-*' | sort | tail -1)" $kind
		pg_flags=
		[ $kind = pg ] && pg_flags=-pg
		(cd $kind && { [ -f configure ] || nice autoreconf -fi; } &&
			nice ./configure CFLAGS="$CFLAGS $pg_flags" LDFLAGS="$pg_flags" --disable-shared \
				--disable-maintainer-mode --without-oniguruma --disable-docs &&
			nice make -j"$JOBS" src/builtin.inc src/version.h && nice make -j"$JOBS" jq) \
			>log/build-$kind.out 2>&1 || die "building $W/$kind failed; see $W/log/build-$kind.out"
		touch $kind/.built
	done
	OBJS=(src/src/main.o src/.libs/libjq.a)
	LIBS=(-lm)
	[ "$PROFILE" = trace ] && cp pg/jq "$PG_BIN"
	return 0
}
input_jq() {
	case $JQ_WORKLOAD in
	posts)
		# Records made by jq itself (the binary built above): a catalogue to
		# train on, posts to measure on.
		src/jq -nc '[range(6000) | {id: ., name: "item \(. * 7919 % 10007)", price: ((. * 37 % 1000) / 10),
			tags: [range(. % 6) | "t\(.)"], nested: {a: (. % 13), b: [., (. * 2)]}}]' >train.json
		src/jq -nc '[range(1000) | {user: "u\(. % 211)", when: (1600000000 + . * 3600),
			text: ("word " * (. % 9 + 1)), score: (. % 17 - 8), flags: {x: (. % 2 == 0), y: null}}]' >heldout.json
		TRAIN=(-c '[.[] | select(.id % 3 == 0) | {id, n: (.tags | length), p: (.price * 2)}] | sort_by(.p) | map(.n) | add' "$W/train.json")
		HELDOUT=(-c 'group_by(.user) | map({user: .[0].user, n: length, total: (map(.score) | add),
			words: (map(.text | split(" ") | length) | add), last: (map(.when) | max | todate)})
			| sort_by(-.total) | .[0:5]' "$W/heldout.json")
		ABOUT="trained on a filter over a 6,000-record catalogue, measured on group_by over 1,000 posts (input_jq in programs.sh)"
		;;
	suite)
		# Every fourth case of jq's own test suite (blank-line separated;
		# '#' lines are comments), its modules where the suite keeps them.
		awk 'BEGIN { RS = "" } {
			out = ""; n = split($0, line, "\n")
			for (i = 1; i <= n; i++) if (line[i] !~ /^#/) out = out line[i] "\n"
			if (out != "" && cases++ % 4 == 0) printf "%s\n", out
		}' src/tests/jq.test >train.test
		src/jq -nc '[range(500) | {id: ., name: "item \(. * 7919 % 10007)", price: ((. * 37 % 1000) / 10),
			tags: [range(. % 6) | "t\(.)"], nested: {a: (. % 13), b: [., (. * 2)]}}]' >catalogue.json
		TRAIN=(-L "$W/src/tests/modules" --run-tests "$W/train.test")
		HELDOUT=(-c -f "$HERE/heldout.jq" "$W/catalogue.json")
		# Each test compiles jq's builtins anew: a trace of the 85 would
		# take gigabytes, so the calls are counted in place (the same
		# calls, so the same order: a trace and a count of nine of the
		# tests gave one order file).
		TRAIN_MODE=count
		ABOUT="trained on every fourth case of jq's tests/jq.test (\`jq --run-tests\`), measured on bench/optimize/heldout.jq over a 500-record catalogue"
		;;
	*) die "JQ_WORKLOAD is posts or suite, not '$JQ_WORKLOAD'" ;;
	esac
}

# Tcl's tclsh, with its library linked in (configure --disable-shared);
# the scripts find Tcl's own library of scripts through TCL_LIBRARY.
build_tcl() {
	local kind pg_flags
	copy_source 'tcl8.6-*' "$W"
	for kind in src pg; do
		[ $kind = pg ] && [ "$PROFILE" != trace ] && continue
		[ -f $kind/.built ] && continue
		[ -d $kind ] || cp -a "$(find "$SRC_DIR" -maxdepth 1 -type d -name 'tcl8.6-*' | sort | tail -1)" $kind
		pg_flags=
		[ $kind = pg ] && pg_flags=-pg
		(cd $kind/unix && nice ./configure CFLAGS="$CFLAGS $pg_flags" LDFLAGS="$pg_flags" \
			--disable-shared --disable-threads --disable-load && nice make -j"$JOBS" tclsh) \
			>log/build-$kind.out 2>&1 || die "building $W/$kind failed; see $W/log/build-$kind.out"
		touch $kind/.built
	done
	OBJS=(src/unix/tclAppInit.o src/unix/libtcl8.6.a)
	LIBS=(-lz -lm)
	[ "$PROFILE" = trace ] && cp pg/unix/tclsh "$PG_BIN"
	TCL_LIBRARY=$W/src/library
	export TCL_LIBRARY
}
input_tcl() {
	TRAIN=("$HERE/train.tcl")
	HELDOUT=("$HERE/heldout.tcl")
	ABOUT="trained on \`tclsh train.tcl\`, measured on \`tclsh heldout.tcl\` (bench/optimize/)"
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
	ABOUT="trained on \`gawk -f train.awk train.txt\`, measured on \`gawk -f heldout.awk heldout.txt\`"
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
	ABOUT="trained on \`xz -c -6 train.txt\`, measured on \`xz -c -6 heldout.txt\`"
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

# PREFIX's order (PREFIX.order, with the calls of each function from
# PREFIX.lor) with the functions that made 99 % of the calls in their
# places and the others shuffled among their places in the order that
# SEED gives, into OUT_FILE.
shuffle_lukewarm() {	# PREFIX SEED OUT_FILE
	awk '/^ +[0-9]+ / { print $2, $4 }' "$1.lor" | sort -k2,2nr -k1,1 |
		awk '{ name[NR] = $1; calls[NR] = $2; total += $2 }
			END { for (i = 1; i <= NR && kept < 0.99 * total; i++) { print name[i]; kept += calls[i] } }' \
		>hot-functions.txt
	grep -vxF -f hot-functions.txt "$1.order" | shuf --random-source=<(yes "$2") >lukewarm.txt || true
	awk 'NR == FNR { hot[$1] = 1; next } FILENAME == "lukewarm.txt" { moved[++n] = $1; next }
		{ print $1 in hot ? $1 : moved[++k] }' hot-functions.txt lukewarm.txt "$1.order" >"$3"
	rm -f hot-functions.txt lukewarm.txt
}

run_program() {	# NAME
	local p=$1
	W=$OUT/$p
	PG_BIN=$W/$p-pg
	mkdir -p "$W/log"
	cd "$W"
	say "$p: building"
	"build_$p"
	TRAIN_MODE=
	"input_$p"
	link_order "$p-default" "" -Wl,-Map="$p-default.map"

	say "$p: training (callscope $PROFILE, and callgrind for lld's graph)"
	local rec=(--mode=sample --stack=dwarf --freq="$FREQ")
	local trained=./$p-default
	if [ "$PROFILE" = trace ]; then
		# Sampled too, for the weights that count samples.
		rec=(--mode=both --freq="$FREQ")
		[ "$TRAIN_MODE" = count ] && rec=(--mode=count)
		trained=$PG_BIN
	fi
	"$CALLSCOPE" record "${rec[@]}" -o train.data -- "$trained" "${TRAIN[@]}" \
		>log/train.out 2>&1 || die "recording $p failed; see $W/log/train.out"
	valgrind --tool=callgrind --callgrind-out-file=callgrind.out "./$p-default" "${TRAIN[@]}" \
		>log/callgrind.out 2>&1 || die "callgrind on $p failed; see $W/log/callgrind.out"
	# callgrind lists functions in no fixed order, arcs of equal count keep
	# it, and lld's clustering breaks ties by the file's order: sorted, lld
	# reads the same file from run to run.
	awk -v object="/$p-default" -f "$HERE/callgrind-arcs.awk" callgrind.out |
		LC_ALL=C sort -k3,3nr -k1,1 -k2,2 >callgrind.cg

	local layouts=(default executed lld-c3 lld-cdsort callscope) v opts
	for v in $SHUFFLES; do layouts+=("shuffled-$v"); done
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
		shuffled-*) shuffle_lukewarm callscope "${l#shuffled-}" "$l.order" ;;
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
	echo "- $p: $ABOUT" >about.md
	# Each layout against lld's C3: the means, whether the ranges
	# separate, and offset by offset (the sign test, as --measure does it).
	jq -r --arg p "$p" '
		def fmt: tostring | explode | reverse | [recurse(if length > 3 then .[3:] else empty end) | .[0:3]] | map(reverse) | reverse | map(implode) | join(",");
		def n: . + 0.5 | floor | fmt;
		def pct: (if . >= 0 then "+" else "" end) + ((. * 10 | round) / 10 | tostring) + "%";
		def cdf($k; $m): reduce range(0; $k + 1) as $i ({t: pow(2; -$m), s: 0};
			.s += .t | .t = .t * ($m - $i) / ($i + 1)) | .s;
		def sign_p($f; $m): if $f + $m == 0 then 1 else [2 * cdf([$f, $m] | min; $f + $m), 1] | min end;
		(.binaries[] | select(.path == $p + "-lld-c3") | .caches[0]) as $c3 |
		.binaries[] | .caches[0] as $c |
		([range(0; $c.misses | length) | select($c.misses[.] < $c3.misses[.])] | length) as $fewer |
		([range(0; $c.misses | length) | select($c.misses[.] > $c3.misses[.])] | length) as $more |
		sign_p($fewer; $more) as $sp |
		(if $c.max < $c3.min then "below" elif $c.min > $c3.max then "above" else "overlap" end) as $range |
		"| \($p) | \(.path | sub("^" + $p + "-"; "")) | \(.instructions | n) | \($c.mean | n) [\($c.min | n)–\($c.max | n)] | \($c.change_pct | pct) | \((($c.mean - $c3.mean) / $c3.mean * 100) | pct) | \($range) | \($fewer)/\($more) of \($c.misses | length), p\(if $sp < 0.0001 then "<0.0001" else "=\($sp * 10000 | round / 10000)" end) | \(if .path == $p + "-lld-c3" then "" elif $range == "below" or ($sp < 0.05 and $fewer > $more) then "**win**" elif $range == "above" or ($sp < 0.05 and $more > $fewer) then "loss" else "no call" end) | \(.pages90) |"
	' measure.json >rows.md
}

for p in $PROGRAMS; do
	case $p in lua | sqlite | jq | tcl | gawk | xz) ;;
	*) die "unknown program '$p' (lua, sqlite, jq, tcl, gawk or xz)" ;;
	esac
	run_program "$p"
done

{
	echo "## Run: link orders on real programs — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Command: \`bench/setup.sh && make && bench/optimize/programs.sh\` (PROGRAMS=\"$PROGRAMS\" JQ_WORKLOAD=$JQ_WORKLOAD PROFILE=$PROFILE FREQ=$FREQ OFFSETS=$OFFSETS OPTIONS=\"$OPTIONS\" VARIANTS=\"$VARIANTS\" SHUFFLES=\"$SHUFFLES\")."
	echo "Machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)."
	echo "Tools: $(gcc --version | head -1); $(ld.lld-19 --version | head -1); $(valgrind --version); callscope $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')."
	echo "I1 misses: cachegrind 32K/8/64 on the held-out input, mean over the offsets [min–max];"
	echo "against lld's default order and against lld's C3; 'range vs C3' says whether the layout's range lies below, above or across C3's;"
	echo "'paired vs C3': the offsets where the layout has fewer/more misses than C3, and the sign test's two-sided p;"
	echo "'vs C3' is the call --measure's rule makes: a win when the ranges separate or p < 0.05."
	echo
	echo "| program | layout | instructions | I1 misses 32K/8/64 | vs default | vs lld-c3 | range vs C3 | paired vs C3 | vs C3 | pages for 90% |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- | ---: |"
	for p in $PROGRAMS; do cat "$OUT/$p/rows.md"; done
	echo
	for p in $PROGRAMS; do cat "$OUT/$p/about.md"; done
} | tee "$OUT/results.md"
