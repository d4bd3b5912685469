# bench/build_real.sh — sourced by the benchmarks that run real programs
# built from their Debian sources as distributions build them.  Needs SRC
# (the unpacked sources) and CFLAGS_DISTRO; builds in the current directory.

# bzip2src/bzip2, once: its library linked in, as upstream's Makefile does
# (Debian's links the shared libbz2, whose stripped code perf cannot name)
build_bzip2() {
	[ -x bzip2src/bzip2 ] && return
	rm -rf bzip2src && cp -r "$(ls -d "$SRC"/bzip2-*/ | head -1)" bzip2src
	(cd bzip2src && cc $CFLAGS_DISTRO -D_FILE_OFFSET_BITS=64 -o bzip2 bzip2.c blocksort.c \
		huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c)
}
