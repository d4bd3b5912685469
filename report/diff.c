#include "report/diff.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "model/samples.h"
#include "report/units.h"
#include "xalloc.h"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static uint64_t hash_key(const char *name, const char *object)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const char *s = base_name(object); *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	h = (h ^ 0xff) * 0x100000001b3ull;
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static int same_key(const struct diff_row *r, const struct func *f)
{
	return !strcmp(r->name, f->name) && !strcmp(base_name(r->object), base_name(f->object));
}

static int ran(const struct func *f)
{
	return f->calls || f->self_ns || f->total_ns || f->virtual_returns || f->samples;
}

/* F's self and total in the diff's unit. */
static uint64_t self_of(const struct diff *d, const struct func *f)
{
	return d->samples ? f->self_samples : f->self_ns;
}

static uint64_t total_of(const struct diff *d, const struct func *f)
{
	return d->samples ? f->samples : f->total_ns;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

double diff_sample_pct(const struct diff *d, int b, uint64_t v)
{
	uint64_t all = b ? d->samples_b : d->samples_a;
	return all ? 100.0 * (double)v / (double)all : 0;
}

/* How far R's self (else total) share moved between the runs, in points. */
static double share_change(const struct diff *d, const struct diff_row *r, int self)
{
	double a = diff_sample_pct(d, 0, self ? r->self_a : r->total_a);
	double b = diff_sample_pct(d, 1, self ? r->self_b : r->total_b);
	return a > b ? a - b : b - a;
}

static int compare(const void *x, const void *y, void *ctx)
{
	const struct diff_row *a = x, *b = y;
	const struct diff *d = ctx;
	uint64_t da, db;

	for (int self = 1; d->samples && self >= 0; self--) {
		double sa = share_change(d, a, self), sb = share_change(d, b, self);
		if (sa != sb)
			return sa < sb ? 1 : -1;
	}
	if ((da = absdiff(a->self_a, a->self_b)) != (db = absdiff(b->self_a, b->self_b)))
		return da < db ? 1 : -1;
	if ((da = absdiff(a->total_a, a->total_b)) != (db = absdiff(b->total_a, b->total_b)))
		return da < db ? 1 : -1;
	if ((da = absdiff(a->calls_a, a->calls_b)) != (db = absdiff(b->calls_a, b->calls_b)))
		return da < db ? 1 : -1;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->object, b->object);
}

int diff_build(const struct profile *a, const struct profile *b, struct diff *d)
{
	size_t cap = 16, alloc = 0;

	memset(d, 0, sizeof(*d));
	d->samples = profile_samples_only(a);
	if (d->samples != profile_samples_only(b))
		return -1;
	d->samples_a = a->samples;
	d->samples_b = b->samples;
	while (cap < (a->nfuncs + b->nfuncs) * 2)
		cap *= 2;
	size_t *slots = xcalloc(cap, sizeof(*slots));	/* row index + 1 */
	for (int side = 0; side < 2; side++) {
		const struct profile *p = side ? b : a;
		for (size_t i = 0; i < p->nfuncs; i++) {
			const struct func *f = &p->funcs[i];
			if (side)
				d->self_b += self_of(d, f), d->calls_b += f->calls;
			else
				d->self_a += self_of(d, f), d->calls_a += f->calls;
			if (!ran(f))
				continue;
			size_t h = hash_key(f->name, f->object) & (cap - 1);
			while (slots[h] && !same_key(&d->rows[slots[h] - 1], f))
				h = (h + 1) & (cap - 1);
			if (!slots[h]) {
				ALLOC_GROW(d->rows, d->nrows + 1, alloc);
				struct diff_row *r = &d->rows[d->nrows++];
				memset(r, 0, sizeof(*r));
				r->name = f->name;
				r->object = f->object;
				slots[h] = d->nrows;
			}
			struct diff_row *r = &d->rows[slots[h] - 1];
			if (side) {
				r->in_b = 1;
				r->self_b += self_of(d, f);
				r->total_b += total_of(d, f);
				r->calls_b += f->calls;
			} else {
				r->in_a = 1;
				r->self_a += self_of(d, f);
				r->total_a += total_of(d, f);
				r->calls_a += f->calls;
			}
		}
	}
	free(slots);
	qsort_r(d->rows, d->nrows, sizeof(*d->rows), compare, d);
	return 0;
}

void diff_release(struct diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

int diff_row_shown(const struct diff *d, const struct diff_row *r, const struct diff_options *o)
{
	if (o->threshold_pct <= 0)
		return 1;
	if (d->samples)
		return share_change(d, r, 1) >= o->threshold_pct ||
		       share_change(d, r, 0) >= o->threshold_pct;
	double limit = o->threshold_pct / 100.0 * (double)d->self_a;
	return (double)absdiff(r->self_a, r->self_b) >= limit ||
	       (double)absdiff(r->total_a, r->total_b) >= limit;
}

/* "+1.234 ms", "-12 ns", "0 ns" */
static const char *signed_duration(char buf[DURATION_BUF + 1], uint64_t a, uint64_t b)
{
	char tmp[DURATION_BUF];

	format_duration(tmp, (double)absdiff(a, b));
	snprintf(buf, DURATION_BUF + 1, "%s%s", a == b ? "" : b > a ? "+" : "-", tmp);
	return buf;
}

static const char *signed_count(char buf[32], uint64_t a, uint64_t b)
{
	snprintf(buf, 32, "%s%llu", a == b ? "" : b > a ? "+" : "-",
		 (unsigned long long)absdiff(a, b));
	return buf;
}

/* V in the diff's unit: a duration, or a count of samples. */
static const char *amount(char buf[DURATION_BUF], const struct diff *d, uint64_t v)
{
	if (!d->samples)
		return format_duration(buf, (double)v);
	snprintf(buf, DURATION_BUF, "%llu", (unsigned long long)v);
	return buf;
}

static const char *signed_amount(char buf[DURATION_BUF + 1], const struct diff *d, uint64_t a,
				 uint64_t b)
{
	if (!d->samples)
		return signed_duration(buf, a, b);
	snprintf(buf, DURATION_BUF + 1, "%s%llu", a == b ? "" : b > a ? "+" : "-",
		 (unsigned long long)absdiff(a, b));
	return buf;
}

/* The change relative to A, or "new"/"gone". */
static const char *relative(char buf[16], const struct diff_row *r)
{
	if (!r->in_a)
		return "new";
	if (!r->in_b)
		return "gone";
	if (r->self_a == r->self_b)
		return "0.0%";
	if (!r->self_a)
		return "+inf%";
	double pct = 100.0 * ((double)r->self_b - (double)r->self_a) / (double)r->self_a;
	snprintf(buf, 16, "%+.1f%%", pct);
	return buf;
}

static void report_json(FILE *out, const struct diff *d, const struct diff_options *o)
{
	struct json j;
	const char *u = d->samples ? "samples" : "ns";
	char k[32];
#define KEY(what) (snprintf(k, sizeof(k), what, u), k)

	json_init(&j, out);
	json_object_begin(&j);
	json_kv_string(&j, "a", o->name_a);
	json_kv_string(&j, "b", o->name_b);
	json_kv_string(&j, "unit", u);
	json_kv_u64(&j, KEY("self_%s_a"), d->self_a);
	json_kv_u64(&j, KEY("self_%s_b"), d->self_b);
	json_kv_u64(&j, "calls_a", d->calls_a);
	json_kv_u64(&j, "calls_b", d->calls_b);
	if (d->samples) {
		json_kv_u64(&j, "samples_a", d->samples_a);
		json_kv_u64(&j, "samples_b", d->samples_b);
	}
	json_kv_double(&j, "threshold_pct", o->threshold_pct);
	json_key(&j, "functions");
	json_array_begin(&j);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		if (!diff_row_shown(d, r, o))
			continue;
		json_object_begin(&j);
		json_kv_string(&j, "name", r->name);
		json_kv_string(&j, "object", r->object);
		json_kv_string(&j, "status", !r->in_a ? "only_b" : !r->in_b ? "only_a" : "both");
		json_kv_u64(&j, KEY("self_%s_a"), r->self_a);
		json_kv_u64(&j, KEY("self_%s_b"), r->self_b);
		json_key(&j, KEY("self_%s_delta"));
		json_i64(&j, (int64_t)(r->self_b - r->self_a));
		json_kv_u64(&j, KEY("total_%s_a"), r->total_a);
		json_kv_u64(&j, KEY("total_%s_b"), r->total_b);
		json_key(&j, KEY("total_%s_delta"));
		json_i64(&j, (int64_t)(r->total_b - r->total_a));
		if (d->samples) {
			/* normalised: shares of each run's samples */
			double sa = diff_sample_pct(d, 0, r->self_a), sb = diff_sample_pct(d, 1, r->self_b);
			double ta = diff_sample_pct(d, 0, r->total_a), tb = diff_sample_pct(d, 1, r->total_b);
			json_kv_double(&j, "self_pct_a", sa);
			json_kv_double(&j, "self_pct_b", sb);
			json_kv_double(&j, "self_pct_delta", sb - sa);
			json_kv_double(&j, "total_pct_a", ta);
			json_kv_double(&j, "total_pct_b", tb);
			json_kv_double(&j, "total_pct_delta", tb - ta);
		}
		json_kv_u64(&j, "calls_a", r->calls_a);
		json_kv_u64(&j, "calls_b", r->calls_b);
		json_key(&j, "calls_delta");
		json_i64(&j, (int64_t)(r->calls_b - r->calls_a));
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
#undef KEY
}

/* Two sampled runs: each function's shares of its run's samples. */
static void report_sample_diff(FILE *out, const struct diff *d, const struct diff_options *o)
{
	size_t hidden = 0;

	fprintf(out, "# A: %s: %llu samples in all\n", o->name_a, (unsigned long long)d->samples_a);
	fprintf(out, "# B: %s: %llu samples in all\n", o->name_b, (unsigned long long)d->samples_b);
	fprintf(out, "# self and total: a function's own samples, and the samples with it on the "
		"stack, as shares of its run's samples (B-A in percentage points)\n");
	fprintf(out, "#\n%10s %8s %8s %11s %8s %8s %10s %10s  %s\n", "self% B-A", "self% A",
		"self% B", "total% B-A", "total% A", "total% B", "samples A", "samples B",
		"function");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		if (!diff_row_shown(d, r, o)) {
			hidden++;
			continue;
		}
		double sa = diff_sample_pct(d, 0, r->self_a), sb = diff_sample_pct(d, 1, r->self_b);
		double ta = diff_sample_pct(d, 0, r->total_a), tb = diff_sample_pct(d, 1, r->total_b);
		fprintf(out, "%+10.2f %8.2f %8.2f %+11.2f %8.2f %8.2f %10llu %10llu  %s%s\n",
			sb - sa, sa, sb, tb - ta, ta, tb, (unsigned long long)r->self_a,
			(unsigned long long)r->self_b, r->name,
			!r->in_a ? " (new)" : !r->in_b ? " (gone)" : "");
	}
	if (hidden)
		fprintf(out, "#\n# %zu function%s changed by less than %g points (hidden)\n", hidden,
			hidden == 1 ? "" : "s", o->threshold_pct);
}

void report_diff(FILE *out, const struct diff *d, const struct diff_options *o)
{
	char a[DURATION_BUF], b[DURATION_BUF], c[DURATION_BUF + 1], e[DURATION_BUF],
	     f[DURATION_BUF], g[DURATION_BUF + 1], h[32], rel[16];
	size_t hidden = 0;

	if (o->json) {
		report_json(out, d, o);
		return;
	}
	if (d->samples) {
		report_sample_diff(out, d, o);
		return;
	} else {
		fprintf(out, "# A: %s: %llu calls, %s self time in all\n", o->name_a,
			(unsigned long long)d->calls_a, format_duration(a, (double)d->self_a));
		fprintf(out, "# B: %s: %llu calls, %s self time in all\n", o->name_b,
			(unsigned long long)d->calls_b, format_duration(b, (double)d->self_b));
	}
	fprintf(out, "#\n%13s %7s %12s %12s %13s %12s %12s %10s %10s %10s  %s\n", "self B-A",
		"self%", "self A", "self B", "total B-A", "total A", "total B", "calls B-A",
		"calls A", "calls B", "function");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		if (!diff_row_shown(d, r, o)) {
			hidden++;
			continue;
		}
		fprintf(out, "%13s %7s %12s %12s %13s %12s %12s %10s %10llu %10llu  %s\n",
			signed_amount(c, d, r->self_a, r->self_b), relative(rel, r),
			amount(a, d, r->self_a), amount(b, d, r->self_b),
			signed_amount(g, d, r->total_a, r->total_b),
			amount(e, d, r->total_a), amount(f, d, r->total_b),
			signed_count(h, r->calls_a, r->calls_b), (unsigned long long)r->calls_a,
			(unsigned long long)r->calls_b, r->name);
	}
	if (hidden)
		fprintf(out, "#\n# %zu function%s changed by less than %g%% of A's time (hidden)\n",
			hidden, hidden == 1 ? "" : "s", o->threshold_pct);
}
