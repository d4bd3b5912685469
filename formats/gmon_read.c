/*
 * The gmon.out reader: GNU tagged records, old BSD and 4.4BSD layouts.
 * See formats/gmon.h for what the parsed form holds and why.
 *
 * Every read goes through struct rd, which checks the bytes are there
 * first; a failure names the record being read and the offset where the
 * record started, so a damaged file is answered with one useful line.
 */
#include "formats/gmon.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "readfile.h"
#include "xalloc.h"

struct rd {
	const uint8_t *buf;
	size_t len, pos;
	const struct gmon_layout *lay;
	char *err;
	size_t errlen;
	int failed;
};

static int rd_fail(struct rd *r, const char *fmt, ...) PRINTF_LIKE(2, 3);

static int rd_fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->failed) {
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
		r->failed = 1;
	}
	return -1;
}

static uint64_t get_uint(const struct rd *r, const uint8_t *p, int n)
{
	uint64_t v = 0;

	if (r->lay->big_endian)
		for (int i = 0; i < n; i++)
			v = v << 8 | p[i];
	else
		for (int i = n - 1; i >= 0; i--)
			v = v << 8 | p[i];
	return v;
}

/* Reads an N-byte integer; WHAT names the record for the message. */
static int rd_uint(struct rd *r, int n, uint64_t *out, const char *what, size_t rec_off)
{
	if (r->len - r->pos < (size_t)n)
		return rd_fail(r, "truncated %s record at offset %zu (the file ends at %zu)",
			       what, rec_off, r->len);
	*out = get_uint(r, r->buf + r->pos, n);
	r->pos += (size_t)n;
	return 0;
}

static int rd_ptr(struct rd *r, uint64_t *out, const char *what, size_t rec_off)
{
	return rd_uint(r, r->lay->ptr_size, out, what, rec_off);
}

const char *gmon_tag_name(int tag)
{
	switch (tag) {
	case GMON_TAG_TIME_HIST: return "TIME_HIST";
	case GMON_TAG_CG_ARC: return "CG_ARC";
	case GMON_TAG_BB_COUNT: return "BB_COUNT";
	}
	return "unknown";
}

void gmon_init(struct gmon *g, const struct gmon_layout *layout)
{
	memset(g, 0, sizeof(*g));
	g->layout = *layout;
	if (g->layout.ptr_size != 4)
		g->layout.ptr_size = 8;
}

void gmon_release(struct gmon *g)
{
	for (size_t i = 0; i < g->nhists; i++)
		free(g->hists[i].bins);
	for (size_t i = 0; i < g->nfiles; i++)
		free(g->files[i].path);
	free(g->hists);
	free(g->arcs);
	free(g->bbs);
	free(g->files);
	free(g->arc_index);
	memset(g, 0, sizeof(*g));
}

/* ---- arcs: summed per (from_pc, self_pc), kept in first-seen order ---- */

static size_t arc_hash(uint64_t from, uint64_t self, size_t size)
{
	uint64_t h = from * 0x9E3779B97F4A7C15ull ^ (self + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 29;
	return (size_t)(h & (size - 1));
}

static void arc_index_rebuild(struct gmon *g, size_t size)
{
	free(g->arc_index);
	g->arc_index = xmalloc(size * sizeof(*g->arc_index));
	for (size_t i = 0; i < size; i++)
		g->arc_index[i] = SIZE_MAX;
	g->arc_index_size = size;
	for (size_t a = 0; a < g->narcs; a++) {
		size_t h = arc_hash(g->arcs[a].from_pc, g->arcs[a].self_pc, size);
		while (g->arc_index[h] != SIZE_MAX)
			h = (h + 1) & (size - 1);
		g->arc_index[h] = a;
	}
}

static void add_arc(struct gmon *g, uint64_t from, uint64_t self, uint64_t count)
{
	if ((g->narcs + 1) * 2 > g->arc_index_size)
		arc_index_rebuild(g, g->arc_index_size ? g->arc_index_size * 2 : 64);
	size_t h = arc_hash(from, self, g->arc_index_size);
	while (g->arc_index[h] != SIZE_MAX) {
		struct gmon_arc *a = &g->arcs[g->arc_index[h]];
		if (a->from_pc == from && a->self_pc == self) {
			/* saturate rather than wrap: counts come from the file */
			a->count = a->count + count < a->count ? UINT64_MAX : a->count + count;
			return;
		}
		h = (h + 1) & (g->arc_index_size - 1);
	}
	ALLOC_GROW(g->arcs, g->narcs + 1, g->arcs_alloc);
	g->arcs[g->narcs] = (struct gmon_arc){ from, self, count };
	g->arc_index[h] = g->narcs++;
}

/* ---- histograms ---- */

/*
 * Finds the histogram for [LOW, HIGH) or makes one.  An existing range
 * that overlaps without being equal is an error, as gprof has it: the
 * bins could not be summed.  Scales (bytes per bin) must agree too, or
 * one "sample hit covers N bytes" line would be false for some.
 */
static struct gmon_hist *hist_for(struct gmon *g, struct rd *r, uint64_t low, uint64_t high,
				  uint32_t nbins, const char *dimen, char abbrev,
				  const char *what, size_t rec_off)
{
	if (nbins == 0 || low >= high) {
		rd_fail(r, "%s record at offset %zu has an empty histogram "
			"(range 0x%llx-0x%llx, %u bins)", what, rec_off,
			(unsigned long long)low, (unsigned long long)high, nbins);
		return NULL;
	}
	double scale = (double)((high - low) / 2) / nbins;
	for (size_t i = 0; i < g->nhists; i++) {
		struct gmon_hist *h = &g->hists[i];
		if (h->low_pc == low && h->high_pc == high) {
			if (h->nbins != nbins) {
				rd_fail(r, "%s record at offset %zu has %u bins for the range "
					"0x%llx-0x%llx where an earlier one had %u", what,
					rec_off, nbins, (unsigned long long)low,
					(unsigned long long)high, h->nbins);
				return NULL;
			}
			return h;
		}
		if (low < h->high_pc && h->low_pc < high) {
			rd_fail(r, "%s record at offset %zu: its range 0x%llx-0x%llx overlaps "
				"the range 0x%llx-0x%llx of an earlier histogram", what, rec_off,
				(unsigned long long)low, (unsigned long long)high,
				(unsigned long long)h->low_pc, (unsigned long long)h->high_pc);
			return NULL;
		}
	}
	if (g->nhists) {
		struct gmon_hist *f = &g->hists[0];
		double fscale = (double)((f->high_pc - f->low_pc) / 2) / f->nbins;
		if (fabs(fscale - scale) > 0.000001) {
			rd_fail(r, "%s record at offset %zu has %g bytes per bin where an "
				"earlier histogram has %g", what, rec_off, 2 * scale, 2 * fscale);
			return NULL;
		}
		if (strcmp(f->dimen, dimen) || f->abbrev != abbrev) {
			rd_fail(r, "%s record at offset %zu counts '%s' where an earlier "
				"histogram counts '%s'", what, rec_off, dimen, f->dimen);
			return NULL;
		}
	}
	ALLOC_GROW(g->hists, g->nhists + 1, g->hists_alloc);
	struct gmon_hist *h = &g->hists[g->nhists++];
	memset(h, 0, sizeof(*h));
	h->low_pc = low;
	h->high_pc = high;
	h->nbins = nbins;
	snprintf(h->dimen, sizeof(h->dimen), "%s", dimen);
	h->abbrev = abbrev;
	h->bins = xcalloc(nbins, sizeof(*h->bins));
	return h;
}

/* Adds H's u16 counts (already checked to be in the file) taken at RATE
 * (the first rate met is kept, for H and for the whole file). */
static void add_bins(struct gmon *g, struct rd *r, struct gmon_hist *h, uint64_t rate)
{
	if (!h->rate)
		h->rate = (uint32_t)rate;
	if (!g->rate)
		g->rate = (uint32_t)rate;
	for (uint32_t i = 0; i < h->nbins; i++)
		h->bins[i] += get_uint(r, r->buf + r->pos + 2 * (size_t)i, 2);
	r->pos += 2 * (size_t)h->nbins;
	g->has_hist = 1;
}

static int read_time_hist(struct gmon *g, struct rd *r, size_t rec_off)
{
	const char *what = "TIME_HIST";
	uint64_t low, high, nbins, rate;

	if (rd_ptr(r, &low, what, rec_off) || rd_ptr(r, &high, what, rec_off) ||
	    rd_uint(r, 4, &nbins, what, rec_off) || rd_uint(r, 4, &rate, what, rec_off))
		return -1;
	if (r->len - r->pos < GMON_DIMEN_LEN + 1)
		return rd_fail(r, "truncated %s record at offset %zu (the file ends at %zu)",
			       what, rec_off, r->len);
	char dimen[GMON_DIMEN_LEN + 1];
	memcpy(dimen, r->buf + r->pos, GMON_DIMEN_LEN);
	dimen[GMON_DIMEN_LEN] = '\0';
	char abbrev = (char)r->buf[r->pos + GMON_DIMEN_LEN];
	r->pos += GMON_DIMEN_LEN + 1;
	/* the bins must be in the file before anything is allocated for them */
	if ((r->len - r->pos) / 2 < nbins)
		return rd_fail(r, "truncated %s record at offset %zu: %llu bins announced, "
			       "%zu bytes left", what, rec_off, (unsigned long long)nbins,
			       r->len - r->pos);
	struct gmon_hist *h = hist_for(g, r, low, high, (uint32_t)nbins, dimen, abbrev,
				       what, rec_off);
	if (!h)
		return -1;
	add_bins(g, r, h, rate);
	return 0;
}

static int read_cg_arc(struct gmon *g, struct rd *r, size_t rec_off)
{
	uint64_t from, self, count;

	if (rd_ptr(r, &from, "CG_ARC", rec_off) || rd_ptr(r, &self, "CG_ARC", rec_off) ||
	    rd_uint(r, 4, &count, "CG_ARC", rec_off))
		return -1;
	add_arc(g, from, self, count);
	g->has_arcs = 1;
	return 0;
}

static int read_bb_count(struct gmon *g, struct rd *r, size_t rec_off)
{
	uint64_t n;
	size_t each = 2 * (size_t)r->lay->ptr_size;

	if (rd_uint(r, 4, &n, "BB_COUNT", rec_off))
		return -1;
	if ((r->len - r->pos) / each < n)
		return rd_fail(r, "truncated BB_COUNT record at offset %zu: %llu blocks "
			       "announced, %zu bytes left", rec_off, (unsigned long long)n,
			       r->len - r->pos);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t addr, count;
		rd_ptr(r, &addr, "BB_COUNT", rec_off);
		rd_ptr(r, &count, "BB_COUNT", rec_off);
		ALLOC_GROW(g->bbs, g->nbbs + 1, g->bbs_alloc);
		g->bbs[g->nbbs++] = (struct gmon_bb){ addr, count };
	}
	g->has_bbs = 1;
	return 0;
}

static int parse_gnu(struct gmon *g, struct rd *r, struct gmon_file_info *fi)
{
	uint64_t version;

	if (r->len < GMON_HEADER_SIZE)
		return rd_fail(r, "truncated header: %zu bytes where the header needs %d",
			       r->len, GMON_HEADER_SIZE);
	if (memcmp(r->buf, GMON_MAGIC, 4))
		return rd_fail(r, "no \"gmon\" magic at offset 0");
	r->pos = 4;
	rd_uint(r, 4, &version, "header", 0);
	if (version > 1)
		return rd_fail(r, "unsupported version %llu at offset 4 (1 expected)",
			       (unsigned long long)version);
	fi->version = (uint32_t)version;
	r->pos = GMON_HEADER_SIZE;	/* the 12 spare bytes are ignored, as gprof does */
	while (r->pos < r->len) {
		size_t rec_off = r->pos;
		int tag = r->buf[r->pos++];
		int rc;
		switch (tag) {
		case GMON_TAG_TIME_HIST:
			rc = read_time_hist(g, r, rec_off);
			fi->hist_records++;
			break;
		case GMON_TAG_CG_ARC:
			rc = read_cg_arc(g, r, rec_off);
			fi->arc_records++;
			break;
		case GMON_TAG_BB_COUNT:
			rc = read_bb_count(g, r, rec_off);
			fi->bb_records++;
			break;
		default:
			return rd_fail(r, "bad record tag %d at offset %zu (0, 1 or 2 expected)",
				       tag, rec_off);
		}
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * Old BSD and 4.4BSD: a header whose ncnt counts the header and the bins
 * in bytes, the u16 bins, then untagged (from, self, count) arcs with a
 * pointer-sized count, up to the end of the file.
 */
static int parse_bsd(struct gmon *g, struct rd *r, enum gmon_format format,
		     struct gmon_file_info *fi)
{
	const char *what = "header";
	uint64_t low, high, ncnt, version = 0, rate = 0;
	size_t ps = (size_t)r->lay->ptr_size;
	size_t hdr;

	if (rd_ptr(r, &low, what, 0) || rd_ptr(r, &high, what, 0) ||
	    rd_uint(r, 4, &ncnt, what, 0) || rd_uint(r, 4, &version, what, 0))
		return -1;
	if (version == GMON_BSD44_VERSION) {
		if (rd_uint(r, 4, &rate, what, 0))
			return -1;
		hdr = 2 * ps + 4 + 4 + 4 + 12;
		format = GMON_FORMAT_BSD44;
	} else {
		if (format == GMON_FORMAT_BSD44)
			return rd_fail(r, "no 4.4BSD version 0x%x at offset %zu",
				       GMON_BSD44_VERSION, 2 * ps + 4);
		hdr = 2 * ps + 4;
		format = GMON_FORMAT_BSD;
	}
	fi->format = format;
	if (r->len < hdr)
		return rd_fail(r, "truncated header: %zu bytes where the header needs %zu",
			       r->len, hdr);
	if (ncnt < hdr)
		return rd_fail(r, "header at offset 0 gives %llu bytes for header and bins, "
			       "less than the %zu-byte header", (unsigned long long)ncnt, hdr);
	r->pos = hdr;
	uint64_t nbins = (ncnt - hdr) / 2;
	if ((r->len - r->pos) / 2 < nbins)
		return rd_fail(r, "truncated histogram after the header: %llu bins announced, "
			       "%zu bytes left", (unsigned long long)nbins, r->len - r->pos);
	if (nbins) {
		struct gmon_hist *h = hist_for(g, r, low, high, (uint32_t)nbins, "seconds", 's',
					       "histogram", 0);
		if (!h)
			return -1;
		add_bins(g, r, h, rate);
		fi->hist_records++;
	}
	r->pos = hdr + 2 * (size_t)((ncnt - hdr) / 2);
	if (r->pos > r->len)
		r->pos = r->len;
	while (r->pos < r->len) {
		size_t rec_off = r->pos;
		uint64_t from, self, count;
		if (rd_ptr(r, &from, "arc", rec_off) || rd_ptr(r, &self, "arc", rec_off) ||
		    rd_ptr(r, &count, "arc", rec_off))
			return -1;
		add_arc(g, from, self, count);
		g->has_arcs = 1;
		fi->arc_records++;
	}
	return 0;
}

int gmon_parse(struct gmon *g, const char *name, const uint8_t *buf, size_t len,
	       enum gmon_format format, char *err, size_t errlen)
{
	struct rd r = { .buf = buf, .len = len, .lay = &g->layout, .err = err,
			.errlen = errlen };
	struct gmon_file_info fi = { .format = format };

	if (errlen)
		err[0] = '\0';
	if (format == GMON_FORMAT_AUTO)
		format = len >= 4 && !memcmp(buf, GMON_MAGIC, 4) ? GMON_FORMAT_GNU
								  : GMON_FORMAT_BSD;
	fi.format = format;
	int rc = format == GMON_FORMAT_GNU ? parse_gnu(g, &r, &fi)
					   : parse_bsd(g, &r, format, &fi);
	if (rc)
		return -1;
	ALLOC_GROW(g->files, g->nfiles + 1, g->files_alloc);
	fi.path = xstrdup(name ? name : "");
	g->files[g->nfiles++] = fi;
	return 0;
}

int gmon_load(struct gmon *g, const char *path, enum gmon_format format)
{
	char *buf;
	size_t got;

	if (read_file(path, 0, &buf, &got) != 0) {
		if (errno == ENOENT)
			return error("cannot open '%s': %s; run the program built with -pg first "
				     "(it writes gmon.out when it exits)", path, strerror(errno));
		if (errno == EINVAL)
			return error("'%s' is not a regular file; give a gmon.out file", path);
		return error("cannot %s '%s': %s", errno == EIO ? "read" : "open", path,
			     strerror(errno));
	}
	char err[256];
	int rc = gmon_parse(g, path, (const uint8_t *)buf, got, format, err, sizeof(err));
	free(buf);
	if (rc)
		return error("'%s' is damaged: %s; profile the program again", path, err);
	return 0;
}
