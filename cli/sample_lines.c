/*
 * Samples per source line: each sample's PC is looked up with its line
 * (the symbolizer's slower path, once per distinct PC thanks to the
 * loader), and the (file, line, function) triples are counted.  A PC
 * without line information counts for its function with line 0.
 */
#include "cli/sample_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "json.h"
#include "report/samples.h"
#include "model/samples.h"
#include "xalloc.h"

struct line_count {
	char *file;		/* owned; "" when unknown */
	int line;
	uint32_t func;
	uint64_t samples;
};

struct line_table {
	struct profile *p;
	struct line_count *rows;
	size_t n, alloc;
	size_t *slots;		/* index + 1 into rows; 0 = empty */
	size_t mask;
};

static size_t line_hash(const char *file, int line, uint32_t func)
{
	size_t h = 1469598103934665603ull;
	for (const char *c = file; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	h = (h ^ (size_t)line) * 1099511628211ull;
	return (h ^ func) * 1099511628211ull;
}

static void table_grow(struct line_table *t)
{
	t->mask = t->mask ? t->mask * 2 + 1 : 255;
	free(t->slots);
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
	for (size_t i = 0; i < t->n; i++) {
		const struct line_count *r = &t->rows[i];
		size_t h = line_hash(r->file, r->line, r->func) & t->mask;
		while (t->slots[h])
			h = (h + 1) & t->mask;
		t->slots[h] = i + 1;
	}
}

static void table_add(struct line_table *t, const char *file, int line, uint32_t func,
		      uint64_t weight)
{
	if (!file)
		file = "";
	if ((t->n + 1) * 2 > t->mask)
		table_grow(t);
	size_t h = line_hash(file, line, func) & t->mask;
	while (t->slots[h]) {
		struct line_count *r = &t->rows[t->slots[h] - 1];
		if (r->line == line && r->func == func && !strcmp(r->file, file)) {
			r->samples += weight;
			return;
		}
		h = (h + 1) & t->mask;
	}
	ALLOC_GROW(t->rows, t->n + 1, t->alloc);
	t->rows[t->n] = (struct line_count){ xstrdup(file), line, func, weight };
	t->slots[h] = ++t->n;
}

static void on_sample(void *ctx, const struct replay_sample *s)
{
	struct line_table *t = ctx;

	profile_add_sample(t->p, s->funcs, s->n, s->weight, s->flags, s->outside, s->missed);
	table_add(t, s->file, s->line, s->funcs[0], s->weight);
}

static int by_samples(const void *a, const void *b)
{
	const struct line_count *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

int sample_lines_report(const struct data_file *df, const struct load_filter *f, int json)
{
	struct line_table t;
	struct load_stats stats;

	memset(&t, 0, sizeof(t));
	t.p = profile_new();
	const struct replay_visitor v = { .ctx = &t, .sample = on_sample, .sample_lines = 1 };
	load_replay(df, f, t.p, &v, &stats);
	struct load_stats more;
	memset(&more, 0, sizeof(more));
	load_sum_samples(df, f, t.p, &v, &more);
	stats.salvaged |= more.salvaged;
	if (df->sum.present)	/* a sum does not keep how its stacks were found */
		memset(t.p->samples_by_method, 0, sizeof(t.p->samples_by_method));
	qsort(t.rows, t.n, sizeof(*t.rows), by_samples);
	double all = t.p->samples ? (double)t.p->samples : 1;
	if (json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		report_samples_json_fields(&j, t.p);
		json_key(&j, "lines");
		json_array_begin(&j);
		for (size_t i = 0; i < t.n; i++) {
			const struct line_count *r = &t.rows[i];
			json_object_begin(&j);
			json_kv_string(&j, "file", r->file);
			json_kv_u64(&j, "line", (uint64_t)r->line);
			json_kv_string(&j, "function", t.p->funcs[r->func].name);
			json_kv_u64(&j, "samples", r->samples);
			json_kv_double(&j, "self_pct", 100.0 * (double)r->samples / all);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	} else {
		report_samples_summary(stdout, t.p);
		if (!t.p->samples)
			printf("# no samples: record with --sample, or a program without hooks\n");
		else
			printf("%7s %9s  %s\n", "self%", "samples", "line");
		for (size_t i = 0; i < t.n; i++) {
			const struct line_count *r = &t.rows[i];
			printf("%7.2f %9llu  %s:%d (%s)\n", 100.0 * (double)r->samples / all,
			       (unsigned long long)r->samples, *r->file ? r->file : "??", r->line,
			       t.p->funcs[r->func].name);
		}
	}
	for (size_t i = 0; i < t.n; i++)
		free(t.rows[i].file);
	free(t.rows);
	free(t.slots);
	profile_free(t.p);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
