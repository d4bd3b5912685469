#include "formats/gmon_encode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
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
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return error("cannot create '%s': %s", path, strerror(e));
	}
	size_t off = 0;
	while (off < b->len) {
		ssize_t w = write(fd, b->p + off, b->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	int e = errno;
	int ok = off == b->len;
	if (close(fd) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) != 0) {
		if (ok)
			e = errno;
		unlink(tmp);
		free(tmp);
		return error("cannot write '%s': %s", path, strerror(e));
	}
	free(tmp);
	return 0;
}
