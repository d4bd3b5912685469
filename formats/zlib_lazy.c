/*
 * zlib, loaded on first use (see lib/lazy_library.h): the HTML page and
 * pprof's gzip member are deflated with it; record never is.
 */
#include <zlib.h>

#include "lazy_library.h"

static struct lazy_library libz = { "libz.so.1", "zlib1g", 0 };

LAZY_FUNCTION(libz, int, deflateInit2_,
	      (z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy,
	       const char *version, int stream_size),
	      (strm, level, method, windowBits, memLevel, strategy, version, stream_size))
LAZY_FUNCTION(libz, int, deflate, (z_streamp strm, int flush), (strm, flush))
LAZY_FUNCTION(libz, int, deflateEnd, (z_streamp strm), (strm))
LAZY_FUNCTION(libz, uLong, deflateBound, (z_streamp strm, uLong sourceLen), (strm, sourceLen))
