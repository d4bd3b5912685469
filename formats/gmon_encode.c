#include "formats/gmon_encode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "outfile.h"
#include "xalloc.h"

void gmon_put_uint(struct bytebuf *b, const struct gmon_layout *l, uint64_t v, int size)
{
	ALLOC_GROW(b->p, b->len + (size_t)size, b->alloc);
	for (int i = 0; i < size; i++) {
		int shift = l->big_endian ? 8 * (size - 1 - i) : 8 * i;
		b->p[b->len++] = (uint8_t)(v >> shift);
	}
}

void gmon_put_header(struct bytebuf *b, const struct gmon_layout *l)
{
	bytebuf_add(b, GMON_MAGIC, 4);
	gmon_put_uint(b, l, 1, 4);	/* version */
	for (int i = 0; i < 3; i++)
		gmon_put_uint(b, l, 0, 4);	/* spare */
}

void gmon_put_hist_header(struct bytebuf *b, const struct gmon_layout *l, uint64_t lo,
			  uint64_t hi, uint32_t nbins, uint32_t rate, const char *dimen,
			  char abbrev)
{
	char field[GMON_DIMEN_LEN];

	gmon_put_uint(b, l, GMON_TAG_TIME_HIST, 1);
	gmon_put_uint(b, l, lo, l->ptr_size);
	gmon_put_uint(b, l, hi, l->ptr_size);
	gmon_put_uint(b, l, nbins, 4);
	gmon_put_uint(b, l, rate, 4);
	memset(field, 0, sizeof(field));
	memcpy(field, dimen, strnlen(dimen, GMON_DIMEN_LEN));
	bytebuf_add(b, field, GMON_DIMEN_LEN);
	gmon_put_uint(b, l, (uint8_t)abbrev, 1);
}

void gmon_put_arc(struct bytebuf *b, const struct gmon_layout *l, uint64_t from, uint64_t self,
		  uint32_t count)
{
	gmon_put_uint(b, l, GMON_TAG_CG_ARC, 1);
	gmon_put_uint(b, l, from, l->ptr_size);
	gmon_put_uint(b, l, self, l->ptr_size);
	gmon_put_uint(b, l, count, 4);
}

int gmon_save(const char *path, const struct bytebuf *b)
{
	struct outfile out;

	if (outfile_open(&out, path, 0) != 0)
		return -1;
	if (b->len && fwrite(b->p, b->len, 1, out.f) != 1)
		return outfile_fail(&out, errno);
	return outfile_commit(&out);
}
