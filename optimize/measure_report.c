/*
 * The report of callscope optimize --measure: the table, the verdicts and
 * the JSON document, from the numbers measure.c gathered.  See
 * measure_report.h.
 */
#include "optimize/measure_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "optimize/paired.h"
#include "xalloc.h"

void spread_add(struct spread *s, double v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->mean = (s->mean * (double)s->n + v) / (double)(s->n + 1);
	s->n++;
}

/* Thousands separated: "1,234,567". */
static const char *grouped(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, k = 0;

	snprintf(digits, sizeof(digits), "%.0f", v < 0 ? 0 : v);
	n = strlen(digits);
	for (size_t i = 0; i < n && k + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = 0;
	return buf;
}

double measure_change(double now, double before)
{
	return before > 0 ? 100.0 * (now - before) / before : 0.0;
}

static const char *short_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static void print_table(const struct measurement *m, const struct binary_numbers *nb,
			size_t ncol, char labels[][32])
{
	const struct measure_options *o = m->o;
	size_t rows = o->nbinaries + 1, cols = ncol + 3;
	char **cell = xcalloc(rows * cols, sizeof(*cell));
	size_t *width = xcalloc(cols, sizeof(*width));
	char a[40], b[40], c[40];

	/* Cells first, so every column gets the width of its widest cell. */
	cell[0] = xstrdup("binary");
	cell[1] = xstrdup("instructions");
	for (size_t k = 0; k < ncol; k++)
		cell[2 + k] = xasprintf("%s mean (range)", labels[k]);
	cell[cols - 1] = xstrdup("pages for 90%");
	for (size_t i = 0; i < o->nbinaries; i++) {
		char **row = cell + (i + 1) * cols;
		row[0] = xstrdup(short_name(o->binaries[i]));
		row[1] = xstrdup(grouped(nb[i].instructions.mean, a, sizeof(a)));
		for (size_t k = 0; k < ncol; k++) {
			const struct spread *s = &nb[i].misses[k];
			char delta[24] = "";
			if (i)
				snprintf(delta, sizeof(delta), " %+.1f%%",
					 measure_change(s->mean, nb[0].misses[k].mean));
			if (s->n > 1)
				row[2 + k] = xasprintf("%s (%s-%s)%s", grouped(s->mean, a, sizeof(a)),
						       grouped(s->min, b, sizeof(b)),
						       grouped(s->max, c, sizeof(c)), delta);
			else
				row[2 + k] = xasprintf("%s%s", grouped(s->mean, a, sizeof(a)), delta);
		}
		row[cols - 1] = nb[i].pages_known ?
			xasprintf("%zu of %zu", nb[i].pages.pages, nb[i].pages.touched) : xstrdup("n/a");
	}
	for (size_t r = 0; r < rows; r++)
		for (size_t k = 0; k < cols; k++)
			if (strlen(cell[r * cols + k]) > width[k])
				width[k] = strlen(cell[r * cols + k]);
	for (size_t r = 0; r < rows; r++) {
		for (size_t k = 0; k < cols; k++) {
			const char *t = cell[r * cols + k];
			/* Names left, numbers right. */
			if (k == 0)
				printf("%-*s", (int)width[k], t);
			else if (k == 1)
				printf("  %*s", (int)width[k], t);
			else if (k + 1 == cols)
				printf("  %s", t);
			else
				printf("  %-*s", (int)width[k], t);
			free(cell[r * cols + k]);
		}
		printf("\n");
	}
	free(cell);
	free(width);
}

/*
 * At a single code offset there is no range to compare; simulated misses
 * of one layout move by this share when its code merely shifts by a few
 * bytes, so a smaller difference says nothing about the order.
 */
#define ONE_OFFSET_SWING 0.30

/*
 * 1 better, -1 worse, 0 neither: the ranges over the offsets separate, or
 * offset by offset one layout has fewer misses often enough that the sign
 * test calls it (see paired.h); at one offset, beyond what one offset's
 * swing can do.
 */
static int compare(const struct spread *now, const struct spread *before,
		   const struct paired *pair)
{
	if (now->n == 1 && before->n == 1) {
		if (now->mean < before->mean * (1.0 - ONE_OFFSET_SWING))
			return 1;
		if (now->mean > before->mean * (1.0 + ONE_OFFSET_SWING))
			return -1;
		return 0;
	}
	if (now->max < before->min)
		return 1;
	if (now->min > before->max)
		return -1;
	return paired_verdict(pair);
}

static void print_verdict(const struct measurement *m, const struct binary_numbers *nb,
			  size_t i, size_t ncol, char labels[][32])
{
	const struct measure_options *o = m->o;
	const char *old = short_name(o->binaries[0]), *now = short_name(o->binaries[i]);
	int better = 0, worse = 0;
	char text[1024];
	size_t used = 0;

	text[0] = 0;
	for (size_t k = 0; k < ncol && used < sizeof(text); k++) {
		const struct spread *s = &nb[i].misses[k], *base = &nb[0].misses[k];
		struct paired pair;
		paired_compare(nb[i].at[k], nb[0].at[k], o->noffsets, &pair);
		int c = compare(s, base, &pair);
		double d = measure_change(s->mean, base->mean);
		char why[96] = "";
		better += c > 0;
		worse += c < 0;
		if (s->n == 1 && base->n == 1)
			snprintf(why, sizeof(why), "%s", c ? "" : " (within what one code offset can swing)");
		else if (s->max < base->min || s->min > base->max)
			snprintf(why, sizeof(why), " (the offsets' ranges separate)");
		else
			snprintf(why, sizeof(why), " (fewer at %zu of %zu offsets, sign test p=%.2g%s)",
				 pair.fewer, o->noffsets, pair.p,
				 c ? "" : ": within the offsets' range");
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%.0f%% %s %s misses%s",
					 k ? ", " : "", fabs(d), d <= 0 ? "fewer" : "more", labels[k],
					 why);
	}
	if (used < sizeof(text) && nb[i].pages_known && nb[0].pages_known)
		snprintf(text + used, sizeof(text) - used, "; 90%% of the executed instructions in "
			 "%zu pages against %zu", nb[i].pages.pages, nb[0].pages.pages);
	if (better && !worse)
		printf("verdict: %s is better than %s: %s\n", now, old, text);
	else if (worse && !better)
		printf("verdict: %s is worse than %s: %s\n", now, old, text);
	else if (better)
		printf("verdict: %s is better than %s on some caches and worse on others: %s\n", now,
		       old, text);
	else
		printf("verdict: no clear difference between %s and %s: %s\n", now, old, text);
}

void measure_print_json(const struct measurement *m, const struct binary_numbers *nb,
		       size_t ncol, char labels[][32])
{
	const struct measure_options *o = m->o;
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_kv_string(&j, "method", m->hardware ? "hardware" : "cachegrind");
	json_key(&j, "offsets");
	json_array_begin(&j);
	for (size_t k = 0; k < o->noffsets; k++)
		json_u64(&j, o->offsets[k]);
	json_array_end(&j);
	json_key(&j, "binaries");
	json_array_begin(&j);
	for (size_t i = 0; i < o->nbinaries; i++) {
		json_object_begin(&j);
		json_kv_string(&j, "path", o->binaries[i]);
		json_kv_double(&j, "instructions", nb[i].instructions.mean);
		json_kv_u64(&j, "exit_status", (uint64_t)nb[i].status);
		if (nb[i].pages_known) {
			json_kv_u64(&j, "pages90", nb[i].pages.pages);
			json_kv_u64(&j, "pages_touched", nb[i].pages.touched);
		}
		json_key(&j, "moved");
		json_array_begin(&j);
		for (size_t k = 0; k < o->noffsets; k++) {
			const struct variant *v = &m->variants[i * o->noffsets + k];
			if (v->moved_known)
				json_i64(&j, v->moved);
			else
				json_string(&j, NULL);
		}
		json_array_end(&j);
		json_key(&j, "caches");
		json_array_begin(&j);
		for (size_t k = 0; k < ncol; k++) {
			const struct spread *s = &nb[i].misses[k];
			json_object_begin(&j);
			json_kv_string(&j, "cache", labels[k]);
			json_kv_double(&j, "mean", s->mean);
			json_kv_double(&j, "min", s->min);
			json_kv_double(&j, "max", s->max);
			json_kv_double(&j, "change_pct", measure_change(s->mean, nb[0].misses[k].mean));
			json_key(&j, "misses");
			json_array_begin(&j);
			for (size_t x = 0; x < o->noffsets; x++)
				json_double(&j, nb[i].at[k][x]);
			json_array_end(&j);
			if (i) {
				struct paired pair;
				paired_compare(nb[i].at[k], nb[0].at[k], o->noffsets, &pair);
				json_kv_u64(&j, "fewer_at", pair.fewer);
				json_kv_u64(&j, "more_at", pair.more);
				json_kv_double(&j, "sign_test_p", pair.p);
				json_key(&j, "verdict");
				json_i64(&j, compare(s, &nb[0].misses[k], &pair));
			}
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}


void measure_print_text(const struct measurement *m, const struct binary_numbers *nb,
			size_t ncol, char labels[][32])
{
	const struct measure_options *o = m->o;

	if (m->hardware)
		printf("L1-icache-load-misses counted by the CPU, %d runs", o->repeat);
	else
		printf("I1 misses simulated by cachegrind");
	printf(" at %zu code offset%s (", o->noffsets, o->noffsets > 1 ? "s" : "");
	for (size_t k = 0; k < o->noffsets; k++)
		printf("%s%llu", k ? ", " : "", (unsigned long long)o->offsets[k]);
	printf(" bytes of padding): mean (range)\n\n");
	print_table(m, nb, ncol, labels);
	if (o->noffsets == 1)
		printf("\nnote: one code offset only; simulated misses swing by tens of percent "
		       "when code moves by a few bytes: give --relink to measure several\n");
	printf("\n");
	for (size_t i = 1; i < o->nbinaries; i++)
		print_verdict(m, nb, i, ncol, labels);
}
