/*
 * Encoding GNU gmon.out records (formats/gmon.h, docs/export.md) in an
 * executable's byte order and pointer size: the one encoder behind the
 * export (formats/gmon_write.c) and gprof -s (gprof/gprof_sum.c).  Each
 * caller decides what goes in the records: how a time becomes bins, and
 * how a count too large for its field is carried into further records.
 */
#ifndef CALLSCOPE_FORMATS_GMON_ENCODE_H
#define CALLSCOPE_FORMATS_GMON_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/bytebuf.h"
#include "formats/gmon.h"

/* V as SIZE bytes (1 to 8) in L's byte order. */
void gmon_put_uint(struct bytebuf *b, const struct gmon_layout *l, uint64_t v, int size);

/* The 20-byte header of a version 1 file. */
void gmon_put_header(struct bytebuf *b, const struct gmon_layout *l);

/* A TIME_HIST record's header over [LO, HI) with NBINS bins; the caller
 * adds the NBINS 16-bit bins with gmon_put_uint(). DIMEN: at most 15 bytes. */
void gmon_put_hist_header(struct bytebuf *b, const struct gmon_layout *l, uint64_t lo,
			  uint64_t hi, uint32_t nbins, uint32_t rate, const char *dimen,
			  char abbrev);

/* A CG_ARC record: COUNT calls from FROM (in the caller) to SELF. */
void gmon_put_arc(struct bytebuf *b, const struct gmon_layout *l, uint64_t from, uint64_t self,
		  uint32_t count);

/*
 * Writes B to PATH under a temporary name, then renames it, so a failure
 * leaves no half file.  Returns 0, or -1 after printing one error line.
 */
int gmon_save(const char *path, const struct bytebuf *b);

#endif
