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

#include <stdlib.h>

#include "formats/gmon_encode.h"

static void put_hist_records(struct bytebuf *b, const struct gmon_layout *l,
			     const struct gmon_hist *h, uint32_t rate, int strict)
{
	uint64_t max = 0;
	for (uint32_t i = 0; i < h->nbins; i++)
		if (h->bins[i] > max)
			max = h->bins[i];
	uint64_t nrec = strict || max == 0 ? 1 : (max + 0xffff - 1) / 0xffff;
	for (uint64_t r = 0; r < nrec; r++) {
		gmon_put_hist_header(b, l, h->low_pc, h->high_pc, h->nbins, rate, h->dimen,
				     h->abbrev);
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
			gmon_put_uint(b, l, v, 2);
		}
	}
}

static void put_arc(struct bytebuf *b, const struct gmon_layout *l, uint64_t from, uint64_t self,
		    uint64_t count, int strict)
{
	do {
		uint64_t part = strict || count <= 0xffffffffu ? (count & 0xffffffffu) : 0xffffffffu;
		gmon_put_arc(b, l, from, self, (uint32_t)part);
		count = strict ? 0 : count - part;
	} while (count);
}

int gprof_write_sum(const char *path, const struct gmon *g, struct gprof_symtab *st,
		    const struct gprof_result *res, int strict)
{
	const struct gmon_layout *l = &g->layout;
	struct bytebuf b = { 0 };

	(void)res;
	gmon_put_header(&b, l);
	for (size_t i = 0; i < g->nhists; i++)
		put_hist_records(&b, l, &g->hists[i], g->rate, strict);
	for (size_t i = 0; i < st->n; i++)
		for (struct gprof_arc *a = st->syms[i].children; a; a = a->next_child)
			put_arc(&b, l, a->parent->addr, a->child->addr, a->count, strict);
	if (g->nbbs) {
		gmon_put_uint(&b, l, GMON_TAG_BB_COUNT, 1);
		gmon_put_uint(&b, l, g->nbbs, 4);
		for (size_t i = 0; i < g->nbbs; i++) {
			gmon_put_uint(&b, l, g->bbs[i].addr, l->ptr_size);
			gmon_put_uint(&b, l, g->bbs[i].count, l->ptr_size);
		}
	}
	int rc = gmon_save(path, &b);
	bytebuf_release(&b);
	return rc;
}
