/*
 * gprof -s: the summed profile written back as a GNU gmon.out.
 *
 * gprof writes each summed bin as one u16, so a sum over 65535 wraps
 * (a bug of GNU gprof's).  Here a bin that does not fit is carried
 * over into further TIME_HIST records for the same range, which every
 * gprof sums when reading; likewise call counts over 32 bits are split
 * over several CG_ARC records.  --compat=strict writes gprof's wrapped
 * values instead.  Arcs are written per (caller, callee) function pair,
 * callers in address order, as gprof writes them, so gprof reading this
 * file builds the same call graph as from its own gmon.sum.
 */
#include "gprof/gprof.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "xalloc.h"

struct outbuf {
	uint8_t *p;
	size_t n, alloc;
	int big_endian;
	int ptr_size;
};

static void put_uint(struct outbuf *b, uint64_t v, int size)
{
	ALLOC_GROW(b->p, b->n + (size_t)size, b->alloc);
	for (int i = 0; i < size; i++) {
		int shift = b->big_endian ? 8 * (size - 1 - i) : 8 * i;
		b->p[b->n++] = (uint8_t)(v >> shift);
	}
}

static void put_bytes(struct outbuf *b, const void *src, size_t n)
{
	ALLOC_GROW(b->p, b->n + n, b->alloc);
	memcpy(b->p + b->n, src, n);
	b->n += n;
}

static void put_hist_records(struct outbuf *b, const struct gmon_hist *h, uint32_t rate, int strict)
{
	uint64_t max = 0;
	for (uint32_t i = 0; i < h->nbins; i++)
		if (h->bins[i] > max)
			max = h->bins[i];
	uint64_t nrec = strict || max == 0 ? 1 : (max + 0xffff - 1) / 0xffff;
	for (uint64_t r = 0; r < nrec; r++) {
		put_uint(b, GMON_TAG_TIME_HIST, 1);
		put_uint(b, h->low_pc, b->ptr_size);
		put_uint(b, h->high_pc, b->ptr_size);
		put_uint(b, h->nbins, 4);
		put_uint(b, rate, 4);
		char dimen[GMON_DIMEN_LEN];
		memset(dimen, 0, sizeof(dimen));
		memcpy(dimen, h->dimen, strnlen(h->dimen, GMON_DIMEN_LEN));
		put_bytes(b, dimen, GMON_DIMEN_LEN);
		put_uint(b, (uint8_t)h->abbrev, 1);
		for (uint32_t i = 0; i < h->nbins; i++) {
			uint64_t v = h->bins[i];
			if (strict) {
				v &= 0xffff;
			} else {
				/* record r carries the part of the bin in [r*65535, (r+1)*65535) */
				uint64_t done = r * 0xffff;
				v = v > done ? v - done : 0;
				if (v > 0xffff)
					v = 0xffff;
			}
			put_uint(b, v, 2);
		}
	}
}

static void put_arc(struct outbuf *b, uint64_t from, uint64_t self, uint64_t count, int strict)
{
	do {
		uint64_t part = strict || count <= 0xffffffffu ? (count & 0xffffffffu) : 0xffffffffu;
		put_uint(b, GMON_TAG_CG_ARC, 1);
		put_uint(b, from, b->ptr_size);
		put_uint(b, self, b->ptr_size);
		put_uint(b, part, 4);
		count = strict ? 0 : count - part;
	} while (count);
}

int gprof_write_sum(const char *path, const struct gmon *g, struct gprof_symtab *st,
		    const struct gprof_result *res, int strict)
{
	struct outbuf b = { .big_endian = g->layout.big_endian, .ptr_size = g->layout.ptr_size };

	(void)res;
	put_bytes(&b, GMON_MAGIC, 4);
	put_uint(&b, 1, 4);
	put_uint(&b, 0, 4);
	put_uint(&b, 0, 4);
	put_uint(&b, 0, 4);
	for (size_t i = 0; i < g->nhists; i++)
		put_hist_records(&b, &g->hists[i], g->rate, strict);
	for (size_t i = 0; i < st->n; i++)
		for (struct gprof_arc *a = st->syms[i].children; a; a = a->next_child)
			put_arc(&b, a->parent->addr, a->child->addr, a->count, strict);
	if (g->nbbs) {
		put_uint(&b, GMON_TAG_BB_COUNT, 1);
		put_uint(&b, g->nbbs, 4);
		for (size_t i = 0; i < g->nbbs; i++) {
			put_uint(&b, g->bbs[i].addr, b.ptr_size);
			put_uint(&b, g->bbs[i].count, b.ptr_size);
		}
	}

	/* written under a temporary name and renamed, so a failure leaves no half file */
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		free(b.p);
		return error("cannot create '%s': %s", path, strerror(e));
	}
	size_t off = 0;
	while (off < b.n) {
		ssize_t w = write(fd, b.p + off, b.n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	int e = errno;
	int ok = off == b.n;
	if (close(fd) != 0)
		ok = 0;
	free(b.p);
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
