/*
 * cachegrind.out files.  See cachegrind.h.  The layout (cachegrind 3.x):
 *
 *   desc: ...                  free text
 *   cmd: ...
 *   events: Ir I1mr ILmr ...   the names of the columns that follow
 *   fl=FILE                    source file of the lines below
 *   fn=NAME                    function of the lines below
 *   LINE N1 N2 ...             counts in the events' order (trailing
 *                              columns may be missing: zero)
 *   summary: N1 N2 ...         the totals
 */
#include "optimize/cachegrind.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "readfile.h"
#include "xalloc.h"

#define CG_MAX_EVENTS 64
#define CG_MAX_FILE (1u << 30)

static int prefix(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - p) >= n && !memcmp(p, word, n);
}

/* Reads the next unsigned decimal from *P; returns 0, or -1 at line end or junk. */
static int next_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (s < end && *s != ' ' && *s != '\t' && *s != '\r')
		return -1;
	*p = s;
	*v = x;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cg_func *)a)->name, ((const struct cg_func *)b)->name);
}

int cg_parse(const char *text, size_t len, struct cg_result *out, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	int ir_col = -1, i1_col = -1, nevents = 0, summary = 0;
	uint64_t current = 0;	/* instructions of the current fn= block */
	char *fn = NULL;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *s = p;
		p = nl ? nl + 1 : end;
		if (prefix(s, le, "events:")) {
			const char *t = s + 7;
			nevents = 0;
			ir_col = i1_col = -1;
			while (t < le && nevents < CG_MAX_EVENTS) {
				while (t < le && (*t == ' ' || *t == '\t'))
					t++;
				const char *w = t;
				while (t < le && *t != ' ' && *t != '\t' && *t != '\r')
					t++;
				if (t == w)
					break;
				if (t - w == 2 && !memcmp(w, "Ir", 2))
					ir_col = nevents;
				if (t - w == 4 && !memcmp(w, "I1mr", 4))
					i1_col = nevents;
				nevents++;
			}
			continue;
		}
		if (prefix(s, le, "fn=")) {
			if (fn) {
				ALLOC_GROW(out->funcs, out->nfuncs + 1, out->funcs_alloc);
				out->funcs[out->nfuncs++] = (struct cg_func){ fn, current };
			}
			const char *ne = s + 3;
			while (ne < le && *ne != '@' && *ne != '\r')
				ne++;
			fn = xstrndup(s + 3, (size_t)(ne - s - 3));
			current = 0;
			continue;
		}
		int is_summary = prefix(s, le, "summary:");
		if (is_summary)
			s += 8;
		else if (s == le || *s < '0' || *s > '9')
			continue;
		if (ir_col < 0) {
			snprintf(err, errlen, "counts before an 'events:' line naming Ir");
			free(fn);
			return -1;
		}
		uint64_t v, line;
		if (!is_summary && next_u64(&s, le, &line))
			continue;
		for (int col = 0; col < nevents && !next_u64(&s, le, &v); col++) {
			if (is_summary) {
				if (col == ir_col)
					out->ir = v;
				if (col == i1_col)
					out->i1_misses = v;
			} else if (col == ir_col && fn) {
				current += v;
			}
		}
		if (is_summary) {
			summary = 1;
			out->has_i1 = i1_col >= 0;
		}
	}
	if (fn) {
		ALLOC_GROW(out->funcs, out->nfuncs + 1, out->funcs_alloc);
		out->funcs[out->nfuncs++] = (struct cg_func){ fn, current };
	}
	if (!summary) {
		snprintf(err, errlen, ir_col < 0 ? "no 'events:' line naming Ir" : "no 'summary:' line");
		return -1;
	}
	/* One entry per name: a function's lines come in blocks per source file. */
	if (out->nfuncs)	/* qsort wants an array, even of nothing */
		qsort(out->funcs, out->nfuncs, sizeof(*out->funcs), by_name);
	size_t m = 0;
	for (size_t i = 0; i < out->nfuncs; i++) {
		if (m && !strcmp(out->funcs[m - 1].name, out->funcs[i].name)) {
			out->funcs[m - 1].ir += out->funcs[i].ir;
			free(out->funcs[i].name);
		} else {
			out->funcs[m++] = out->funcs[i];
		}
	}
	out->nfuncs = m;
	return 0;
}

int cg_load(const char *path, struct cg_result *out)
{
	char err[128];
	char *text;
	size_t size;

	memset(out, 0, sizeof(*out));
	if (read_file(path, CG_MAX_FILE, &text, &size) != 0) {
		if (errno == EINVAL || errno == EFBIG)
			return error("'%s' is not a cachegrind output file", path);
		return error("cannot %s '%s': %s", errno == EIO ? "read" : "open", path,
			     strerror(errno));
	}
	int rc = cg_parse(text, size, out, err, sizeof(err));
	free(text);
	if (rc) {
		cg_release(out);
		return error("'%s' is not a cachegrind output file: %s", path, err);
	}
	return 0;
}

void cg_release(struct cg_result *r)
{
	for (size_t i = 0; i < r->nfuncs; i++)
		free(r->funcs[i].name);
	free(r->funcs);
	memset(r, 0, sizeof(*r));
}
