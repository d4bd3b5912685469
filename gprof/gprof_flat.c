/*
 * gprof's flat profile, column for column: functions by self time, then
 * calls, then name; the per-call unit (s, ms, us, ...) chosen so the
 * largest per-call time lands in [1, 1000).  Headers keep gprof's
 * trailing spaces.  The explanation printed without -b is our own.
 */
#include "gprof/gprof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"
#include "xalloc.h"

static const struct {
	char prefix;
	double scale;
} si[] = {
	{ 'T', 1e-12 }, { 'G', 1e-09 }, { 'M', 1e-06 }, { 'K', 1e-03 }, { ' ', 1e-00 },
	{ 'm', 1e+03 }, { 'u', 1e+06 }, { 'n', 1e+09 }, { 'p', 1e+12 }, { 'f', 1e+15 },
	{ 'a', 1e+18 },
};

const char *gprof_sym_file(const struct gprof_sym *s, const struct gprof_opts *o)
{
	const char *slash = o->print_path ? NULL : strrchr(s->file, '/');

	return slash ? slash + 1 : s->file;
}

int gprof_print_name_only(FILE *out, const struct gprof_sym *s, const struct gprof_opts *o)
{
	int size = 0;
	char *demangled = NULL;
	const char *name = s->name;

	if (!name)
		return 0;
	/* as gprof: demangled unless --no-demangle, never with -T */
	if (!o->bsd_style && (demangled = demangle_symbol(name)))
		name = demangled;
	fputs(name, out);
	size = (int)strlen(name);
	free(demangled);
	if (o->line_granularity && s->file) {
		char *buf = xasprintf(" (%s:%d @ %" PRIx64 ")", gprof_sym_file(s, o), s->line,
				      s->addr);
		fputs(buf, out);
		size += (int)strlen(buf);
		free(buf);
	}
	return size;
}

void gprof_print_name(FILE *out, const struct gprof_sym *s, const struct gprof_opts *o)
{
	gprof_print_name_only(out, s, o);
	if (s->cyc_num != 0)
		fprintf(out, " <cycle %d>", s->cyc_num);
	if (s->index != 0)
		fprintf(out, s->print_flag ? " [%d]" : " (%d)", s->index);
}

static int cmp_time(const void *lp, const void *rp)
{
	const struct gprof_sym *l = *(const struct gprof_sym *const *)lp;
	const struct gprof_sym *r = *(const struct gprof_sym *const *)rp;
	double diff = r->time - l->time;

	if (diff > 0.0)
		return 1;
	if (diff < 0.0)
		return -1;
	if (r->ncalls > l->ncalls)
		return 1;
	if (r->ncalls < l->ncalls)
		return -1;
	int c = strcmp(l->name, r->name);
	if (c)
		return c;
	return l < r ? -1 : l > r;	/* keep address order, as glibc's stable sort does */
}

static void flat_explain(FILE *out, const struct gprof_result *res)
{
	fprintf(out, "\n"
		"How to read the flat profile\n"
		"\n"
		"One line per function, the busiest first.  The profiled program was\n"
		"interrupted %g times a second; each interruption charged one sample to\n"
		"the function it stopped in, so times are estimates with a resolution of\n"
		"%g %s.\n"
		"\n"
		" %% time      the function's share of all samples (its own code only).\n"
		" cumulative  running total of the self column, down to this line.\n"
		" self        time spent in the function's own code.\n"
		" calls       times other functions called it (calls to itself are left\n"
		"             out); blank when its code was not built with -pg.\n"
		" self/call   self time divided by calls.\n"
		" total/call  self time plus the share of its callees' time charged to\n"
		"             it, divided by calls.\n"
		" name        the function; the index after a name in the call graph\n"
		"             says where its entry is.\n"
		"\n",
		res->hz, res->hz > 0 ? 1.0 / res->hz : 0.0, res->dimen);
}

void gprof_print_flat(FILE *out, struct gprof_symtab *st, const struct gprof_filters *f,
		      const struct gprof_opts *o, struct gprof_result *res, int *first)
{
	size_t n = st->n;
	double accum_time = 0.0;
	unsigned log_scale;

	if (*first)
		*first = 0;
	else
		fputs("\f\n", out);
	if (o->bsd_style) {
		if (!o->brief) {
			fputs("\n\n\nflat profile:\n", out);
			flat_explain(out, res);
		}
	} else {
		fputs("Flat profile:\n", out);
	}
	struct gprof_sym **sorted = xmalloc((n ? n : 1) * sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		sorted[i] = &st->syms[i];
	qsort(sorted, n, sizeof(*sorted), cmp_time);

	if (o->bsd_style) {
		log_scale = 5;	/* milliseconds, the BSD default */
	} else {
		struct gprof_sym *top_dog = NULL;
		double top_time = 0.0;
		log_scale = 0;
		for (size_t i = 0; i < n; i++) {
			struct gprof_sym *s = sorted[i];
			if (s->ncalls != 0) {
				double call_time = (s->time + s->child_time) / s->ncalls;
				if (call_time > top_time) {
					top_dog = s;
					top_time = call_time;
				}
			}
		}
		if (top_dog && top_dog->ncalls != 0 && top_time > 0.0) {
			top_time /= res->hz;
			for (log_scale = 0; log_scale < sizeof(si) / sizeof(si[0]); log_scale++) {
				double scaled = si[log_scale].scale * top_time;
				if (scaled >= 1.0 && scaled < 1000.0)
					break;
			}
			/* gprof would read past its table here; stay on its last unit */
			if (log_scale == sizeof(si) / sizeof(si[0]))
				log_scale--;
		}
	}
	char unit[64];
	snprintf(unit, sizeof(unit), "%c%c/call", si[log_scale].prefix, res->abbrev);
	if (o->bsd_style) {
		fprintf(out, "\ngranularity: each sample hit covers %ld byte(s)",
			gprof_granularity(res));
		if (res->total_time > 0.0)
			fprintf(out, " for %.2f%% of %.2f %s\n\n", 100.0 / res->total_time,
				res->total_time / res->hz, res->dimen);
	} else {
		fprintf(out, "\nEach sample counts as %g %s.\n", 1.0 / res->hz, res->dimen);
	}
	if (res->total_time <= 0.0) {
		fputs(" no time accumulated\n\n", out);
		res->total_time = 1.0;
	}
	fprintf(out, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ", "cumulative",
		"self  ", "", "self  ", "total ", "");
	fprintf(out, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "time", res->dimen,
		res->dimen, "calls", unit, unit, "name");

	double scale = si[log_scale].scale;
	for (size_t i = 0; i < n; i++) {
		struct gprof_sym *s = sorted[i];
		if (!(gprof_ranges_has(&f->t[GT_INCL_FLAT], s->addr) ||
		      (f->t[GT_INCL_FLAT].n == 0 && !gprof_ranges_has(&f->t[GT_EXCL_FLAT], s->addr))))
			continue;
		if (o->ignore_zeros && s->ncalls == 0 && s->time == 0)
			continue;
		accum_time += s->time;
		double pct = res->total_time > 0.0 ? 100 * s->time / res->total_time : 0.0;
		if (o->bsd_style)
			fprintf(out, "%5.1f %10.2f %8.2f", pct, accum_time / res->hz, s->time / res->hz);
		else
			fprintf(out, "%6.2f %9.2f %8.2f", pct, accum_time / res->hz, s->time / res->hz);
		if (s->ncalls != 0)
			fprintf(out, " %8" PRIu64 " %8.2f %8.2f  ", s->ncalls,
				scale * s->time / res->hz / s->ncalls,
				scale * (s->time + s->child_time) / res->hz / s->ncalls);
		else
			fprintf(out, " %8.8s %8.8s %8.8s  ", "", "", "");
		if (o->bsd_style)
			gprof_print_name(out, s, o);
		else
			gprof_print_name_only(out, s, o);
		fputc('\n', out);
	}
	free(sorted);
	if (!o->brief && !o->bsd_style)
		flat_explain(out, res);
}
