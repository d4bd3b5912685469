/*
 * gmon.out in the GNU format (see shared facts in docs/export.md): a
 * 20-byte header, then tagged records.  What gprof reads from it:
 *
 *   TIME_HIST  self time.  One record per function, over the first bytes
 *              of the function (at most 256 bins of 4 bytes, all inside
 *              it), at 1 MHz: a bin count is one microsecond.  A bin holds
 *              16 bits, so a longer time repeats the record: gprof sums
 *              records with the same range.
 *   CG_ARC     exact call counts, from the call site in the caller (the
 *              return address of its direct call, found in its code; the
 *              caller's start where there is none, as for calls through a
 *              pointer) to the callee's start.
 *              A count over 32 bits is split over repeated records, which
 *              gprof sums as well.
 *
 * A recording of timer samples alone has no calls and no times in ns: its
 * histogram counts each function's samples at prof_rate 1 in the
 * dimension "samples", which gprof prints in its headers ("Each sample
 * counts as 1 samples", "cumulative samples"), and it has no CG_ARC.
 *
 * gprof names only the symbols of the executable it is given, at their
 * link-time addresses: the main executable's functions are written there.
 * Functions of shared libraries (or of another program an exec started)
 * are written at their run-time addresses, far from the executable's, so
 * gprof counts their time in the total (its "% time" column then agrees
 * with callscope's) but cannot name them; one warning says how much.
 */
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "formats/export.h"
#include "formats/gmon_encode.h"
#include "xalloc.h"

#define MAX_BINS 256

struct placed {
	uint32_t func;
	uint64_t addr;		/* where gprof will see the function */
	uint64_t lo, hi;	/* histogram range, multiples of 4 */
	int main_exe;
};

/* What the export writes: the 64-bit little-endian layout of x86-64. */
static const struct gmon_layout layout = { 0, 8 };

/* What the histogram counts: microseconds of self time, or samples. */
struct hist_unit {
	uint32_t rate;
	const char *dimen;	/* at most 15 bytes */
};

static const struct hist_unit unit_us = { GMON_PROF_RATE, "seconds" };
static const struct hist_unit unit_samples = { 1, "samples" };

/* Histogram records for TICKS counts over [LO, HI), bins filled in turn. */
static void put_hist(struct bytebuf *b, uint64_t lo, uint64_t hi, uint64_t ticks,
		     const struct hist_unit *u)
{
	uint32_t nbins = (uint32_t)((hi - lo) / 4);

	while (ticks) {
		gmon_put_hist_header(b, &layout, lo, hi, nbins, u->rate, u->dimen, 's');
		for (uint32_t i = 0; i < nbins; i++) {
			uint64_t c = ticks > 65535 ? 65535 : ticks;
			ticks -= c;
			gmon_put_uint(b, &layout, c, 2);
		}
	}
}

/* Arc records for COUNT calls, a count over 32 bits split over several. */
static void put_arc(struct bytebuf *b, uint64_t from, uint64_t self, uint64_t count)
{
	while (count) {
		uint32_t c = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
		count -= c;
		gmon_put_arc(b, &layout, from, self, c);
	}
}

static int by_lo(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static uint64_t ticks_of(uint64_t ns)
{
	return (ns + 500000000u / GMON_PROF_RATE) / (1000000000u / GMON_PROF_RATE);
}

/* F's histogram counts in the unit M's recording gives. */
static uint64_t hist_counts(const struct func *f, const struct export_meta *m)
{
	return m->samples_only ? f->self_samples : ticks_of(f->self_ns);
}

/* The self cost the warnings compare: ns, or samples. */
static uint64_t self_cost(const struct func *f, const struct export_meta *m)
{
	return m->samples_only ? f->self_samples : f->self_ns;
}

/* Where F goes, or 0 when it cannot be placed (no object known). */
static int place(const struct func *f, const struct export_meta *m, struct placed *pl)
{
	const struct export_object *o;

	pl->main_exe = m->main_exe && !strcmp(f->object, m->main_exe);
	if (pl->main_exe) {
		pl->addr = f->addr;
	} else if ((o = export_meta_object(m, f->object)) != NULL) {
		pl->addr = f->addr + o->load_bias;
	} else {
		return 0;
	}
	/* Bins of 4 bytes from a multiple of 4 inside the function: gprof's
	 * own bin arithmetic then lands each one on this function alone. */
	uint64_t end = pl->addr + (f->size ? f->size : 4);
	pl->lo = (pl->addr + 3) & ~(uint64_t)3;
	if (pl->lo + 4 > end)
		pl->lo = pl->addr & ~(uint64_t)3;
	uint64_t nbins = end > pl->lo ? (end - pl->lo) / 4 : 1;
	if (nbins < 1)
		nbins = 1;
	if (nbins > MAX_BINS)
		nbins = MAX_BINS;
	pl->hi = pl->lo + 4 * nbins;
	return 1;
}

int gmon_write(FILE *out, const struct profile *p, const struct export_meta *m)
{
	struct placed *pl = xcalloc(p->nfuncs + 1, sizeof(*pl));
	int32_t *where = xmalloc((p->nfuncs + 1) * sizeof(*where));
	size_t n = 0, other = 0, dropped = 0;
	uint64_t other_ns = 0, all_ns = 0, dropped_ns = 0;
	struct bytebuf b = { 0 };
	int rc = -1;

	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		where[i] = -1;
		all_ns += self_cost(f, m);
		if (!f->calls && !f->self_ns && !f->total_ns && !f->self_samples)
			continue;
		pl[n].func = (uint32_t)i;
		if (!place(f, m, &pl[n])) {
			dropped++;
			dropped_ns += self_cost(f, m);
			continue;
		}
		n++;
	}
	/* Ranges must not overlap: gprof rejects overlapping histograms. In
	 * one object functions never overlap; objects of different processes
	 * at their run-time addresses might, and the later one is left out. */
	qsort(pl, n, sizeof(*pl), by_lo);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (kept && pl[i].lo < pl[kept - 1].hi) {
			dropped++;
			dropped_ns += self_cost(&p->funcs[pl[i].func], m);
			continue;
		}
		pl[kept++] = pl[i];
	}
	n = kept;
	for (size_t i = 0; i < n; i++) {
		where[pl[i].func] = (int32_t)i;
		if (!pl[i].main_exe) {
			other++;
			other_ns += self_cost(&p->funcs[pl[i].func], m);
		}
	}

	gmon_put_header(&b, &layout);
	for (size_t i = 0; i < n; i++)
		put_hist(&b, pl[i].lo, pl[i].hi, hist_counts(&p->funcs[pl[i].func], m),
			 m->samples_only ? &unit_samples : &unit_us);
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (a->caller == FUNC_NONE || where[a->caller] < 0 || where[a->callee] < 0)
			continue;
		const struct placed *from = &pl[where[a->caller]];
		/* the site lies in the caller's object, placed as the caller is */
		uint64_t site = a->site ? from->addr + (a->site - p->funcs[a->caller].addr)
					: from->addr;
		put_arc(&b, site, pl[where[a->callee]].addr, a->count);
	}
	if (fwrite(b.p, 1, b.len, out) != b.len || fflush(out) != 0 || ferror(out))
		goto done;
	rc = 0;
	const char *cost = m->samples_only ? "samples" : "time";
	if (other) {
		double pct = all_ns ? 100.0 * (double)other_ns / (double)all_ns : 0;
		warning("gprof cannot name the %zu function%s outside '%s' (%.1f%% of the self "
			"%s): %s %s counts in gprof's total but no row or call shows %s",
			other, other == 1 ? "" : "s", m->main_exe ? m->main_exe : "the program", pct,
			cost, other == 1 ? "its" : "their", cost, other == 1 ? "it" : "them");
	}
	if (dropped) {
		double pct = all_ns ? 100.0 * (double)dropped_ns / (double)all_ns : 0;
		warning("%zu function%s of no known object (%.1f%% of the self %s) %s left out "
			"of the gmon.out", dropped, dropped == 1 ? "" : "s", pct, cost,
			dropped == 1 ? "is" : "are");
	}
done:
	bytebuf_release(&b);
	free(pl);
	free(where);
	return rc;
}
