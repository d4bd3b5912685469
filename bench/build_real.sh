# bench/build_real.sh — sourced by the benchmarks that run real programs
# built from their Debian sources as distributions build them.  Needs SRC
# (the unpacked sources: bzip2-*, lua5.4-*, libzstd-*, jq-*, ninja-build-*,
# groff-*)
# and CFLAGS_DISTRO; builds in the current directory.

# bzip2src/bzip2, once: its library linked in, as upstream's Makefile does
# (Debian's links the shared libbz2, whose stripped code perf cannot name)
build_bzip2() {
	[ -x bzip2src/bzip2 ] && return
	rm -rf bzip2src && cp -r "$(ls -d "$SRC"/bzip2-*/ | head -1)" bzip2src
	(cd bzip2src && cc $CFLAGS_DISTRO -D_FILE_OFFSET_BITS=64 -o bzip2 bzip2.c blocksort.c \
		huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c)
}

# lua/lua, once: the interpreter and its library in one binary
build_lua() {
	[ -x lua/lua ] && return
	rm -rf lua && cp -r "$(ls -d "$SRC"/lua5.4-*/ | head -1)" lua
	echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' > lua/src/lua5.4-deb-multiarch.h
	(cd lua/src && cc $CFLAGS_DISTRO -DLUA_USE_LINUX -I. -o ../lua \
		$(ls *.c | grep -v '^luac\.c$') -lm -ldl)
}

# DIR/programs/zstd, once (DIR: zstd, or zstd-mt for the command with its
# worker threads): the command alone, no other compressors
build_zstd() {
	local dir=${1:-zstd} threads=0
	[ "$dir" = zstd-mt ] && threads=1
	[ -x "$dir/programs/zstd" ] && return
	rm -rf "$dir" && cp -r "$(ls -d "$SRC"/libzstd-*/ | head -1)" "$dir"
	make -s -C "$dir/programs" zstd CFLAGS="$CFLAGS_DISTRO" HAVE_ZLIB=0 HAVE_LZMA=0 \
		HAVE_LZ4=0 HAVE_THREAD=$threads > /dev/null 2>&1
}

# jq/jq, once: its configure made by autoreconf, libjq linked in, no
# regular expressions (oniguruma)
build_jq() {
	[ -x jq/jq ] && return
	rm -rf jq && cp -r "$(ls -d "$SRC"/jq-*/ | head -1)" jq
	(cd jq && autoreconf -fi && ./configure CFLAGS="$CFLAGS_DISTRO" --disable-shared \
		--disable-maintainer-mode --without-oniguruma --disable-docs &&
		make -j2 src/builtin.inc src/version.h && make -j2 jq) > jq-build.log 2>&1
}

# groff/troff, once: GNU troff (C++) from groff's Debian source,
# configured as Debian's rules configure it (its grammars by bison), with
# the flags given; groff/manpages.txt is every manual page in man's
# macros (not mdoc's) the build made, troff's input
build_groff() {
	[ -x groff/troff ] && return
	rm -rf groff && cp -r "$(ls -d "$SRC"/groff-*/ | head -1)" groff
	(cd groff && autoreconf -f -i -I m4 && ./configure YACC='bison -y' --without-x \
		--without-doc CFLAGS="$CFLAGS_DISTRO" CXXFLAGS="$CFLAGS_DISTRO -std=gnu++98" &&
		make -j2) > groff-build.log 2>&1
	find groff -name '*.[1578]' -not -path '*/autom4te.cache/*' | sort |
		xargs grep -L '^\.Dd' | xargs grep -l '^\.TH ' | xargs cat > groff/manpages.txt
}

# ninja's sources under DIR, one a line, as its configure.py builds it on
# Linux, without the browse tool (which needs a generated header)
ninja_sources() {
	local f
	for f in build build_log clean clparser debug_flags depfile_parser deps_log \
		disk_interface dyndep dyndep_parser edit_distance eval_env graph graphviz json \
		lexer line_printer manifest_parser metrics missing_deps parser state status \
		string_piece_util util version subprocess-posix ninja; do
		echo "$1/src/$f.cc"
	done
}
# the flags its configure.py adds
NINJA_FLAGS=(-std=c++11 -fno-rtti -fno-exceptions -DNDEBUG '-DNINJA_PYTHON="python3"')

# ninja/ninja, once
build_ninja() {
	[ -x ninja/ninja ] && return
	rm -rf ninja && cp -r "$(ls -d "$SRC"/ninja-build-*/ | head -1)" ninja
	# shellcheck disable=SC2046
	(cd ninja && g++ $CFLAGS_DISTRO "${NINJA_FLAGS[@]}" -o ninja $(ninja_sources .)) \
		> ninja-build.log 2>&1
}

# write_ninja_project DIR LIBS: a build of LIBS libraries of 30 objects for
# ninja's dry run (-n), each object depending on a header of its library
# and a shared one; the sources and headers exist and no output does, so
# every edge is dirty and is "run".  The outputs' folders exist, as ninja
# makes them even in a dry run: every run takes the same paths.  Kept when
# DIR/build.ninja is there.
write_ninja_project() {
	local d=$1 l
	[ -f "$d/build.ninja" ] && return 0
	mkdir -p "$d/include" "$d/lib"
	touch "$d/include/common.h"
	for ((l = 0; l < $2; l++)); do
		mkdir -p "$d/src/l$l" "$d/obj/l$l"
		touch "$d/include/l$l.h"
		(cd "$d/src/l$l" && touch $(seq -f 'o%g.c' 0 29))
	done
	awk -v libs="$2" 'BEGIN {
		print "cflags = -O2"
		print "rule cc\n  command = cc $cflags -c $in -o $out\n  description = CC $out"
		print "rule ar\n  command = ar rcs $out $in"
		print "rule link\n  command = cc -o $out $in"
		for (l = 0; l < libs; l++) {
			objs = ""
			for (o = 0; o < 30; o++) {
				printf "build obj/l%d/o%d.o: cc src/l%d/o%d.c | include/l%d.h include/common.h\n", l, o, l, o, l
				if (o % 7 == 0) printf "  cflags = -O%d\n", o % 3
				objs = objs " obj/l" l "/o" o ".o"
			}
			printf "build lib/l%d.a: ar%s\n", l, objs
			all = all " lib/l" l ".a"
		}
		printf "build app: link%s\ndefault app\n", all
	}' > "$d/build.ninja"
}

# write_text FILE LINES: text with some repetition, the same every run;
# kept when FILE is there
write_text() {
	[ -s "$1" ] || awk -v n="$2" 'BEGIN { srand(7);
		split("the of and to in is was that for it with as his on be at by had", w, " ");
		for (i = 0; i < n; i++) { line = ""; for (k = 0; k < 8; k++)
			line = line w[int(rand() * 18) + 1] int(rand() * 50) " "; print line } }' > "$1"
}
