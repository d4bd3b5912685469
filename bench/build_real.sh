# bench/build_real.sh — sourced by the benchmarks that run real programs
# built from their Debian sources as distributions build them.  Needs SRC
# (the unpacked sources: bzip2-*, lua5.4-*, libzstd-*, jq-*) and
# CFLAGS_DISTRO; builds in the current directory.

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

# zstd/programs/zstd, once: the command alone, no other compressors
build_zstd() {
	[ -x zstd/programs/zstd ] && return
	rm -rf zstd && cp -r "$(ls -d "$SRC"/libzstd-*/ | head -1)" zstd
	make -s -C zstd/programs zstd CFLAGS="$CFLAGS_DISTRO" HAVE_ZLIB=0 HAVE_LZMA=0 \
		HAVE_LZ4=0 HAVE_THREAD=0 > /dev/null 2>&1
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

# write_text FILE LINES: text with some repetition, the same every run;
# kept when FILE is there
write_text() {
	[ -s "$1" ] || awk -v n="$2" 'BEGIN { srand(7);
		split("the of and to in is was that for it with as his on be at by had", w, " ");
		for (i = 0; i < n; i++) { line = ""; for (k = 0; k < 8; k++)
			line = line w[int(rand() * 18) + 1] int(rand() * 50) " "; print line } }' > "$1"
}
