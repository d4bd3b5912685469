/*
 * gprof's symspecs: FILE:FUNC, FILE:LINE, or one part alone (a spec with
 * a dot is a file, one starting with a digit a line, anything else a
 * function name), turned into the address ranges of the symbols they
 * match.  A file matches by its last path component, as gprof compares
 * them: the user cannot know how the path was stored in the debug info.
 * Consecutive matching symbols make one range, so a whole file is
 * usually one range.
 */
#include "gprof/gprof.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"
#include "xalloc.h"

static void ranges_add(struct gprof_ranges *t, uint64_t lo, uint64_t hi)
{
	if (t->n && t->r[t->n - 1].hi + 1 == lo) {
		t->r[t->n - 1].hi = hi;
		return;
	}
	ALLOC_GROW(t->r, t->n + 1, t->alloc);
	t->r[t->n].lo = lo;
	t->r[t->n].hi = hi;
	t->n++;
}

int gprof_table_accepts(const struct gprof_filters *f, enum gprof_table incl,
			enum gprof_table excl, uint64_t addr)
{
	return gprof_ranges_has(&f->t[incl], addr) ||
	       (f->t[incl].n == 0 && !gprof_ranges_has(&f->t[excl], addr));
}

int gprof_ranges_has(const struct gprof_ranges *t, uint64_t addr)
{
	for (size_t i = 0; i < t->n; i++)
		if (addr >= t->r[i].lo && addr <= t->r[i].hi)
			return 1;
	return 0;
}

void gprof_ranges_release(struct gprof_ranges *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

struct pattern {
	const char *file;	/* NULL: any */
	int line;		/* 0: any */
	const char *name;	/* NULL: any */
};

static void parse_spec(char *spec, struct pattern *p)
{
	memset(p, 0, sizeof(*p));
	char *colon = strrchr(spec, ':');
	if (colon) {
		*colon = '\0';
		if (colon > spec)
			p->file = spec;
		spec = colon + 1;
		if (*spec) {
			if (isdigit((unsigned char)spec[0]))
				p->line = atoi(spec);
			else
				p->name = spec;
		}
	} else if (*spec) {
		if (strchr(spec, '.'))
			p->file = spec;
		else if (isdigit((unsigned char)*spec))
			p->line = atoi(spec);
		else
			p->name = spec;
	}
}

static int matches(const struct pattern *p, const struct gprof_sym *s)
{
	if (p->file && (!s->file || strcmp(p->file, base_name(s->file))))
		return 0;
	if (p->line && p->line != s->line)
		return 0;
	if (p->name && strcmp(p->name, s->name))
		return 0;
	return 1;
}

/*
 * A function spec gprof finds nothing for, read as a C++ name (callscope's
 * own symspec forms, symbols/demangle.h), optionally after "FILE:":
 * "geometry::Square::area", "p.cc:sum_all<int>".  gprof would ignore it;
 * every spec gprof understands still means what it means to gprof.
 */
static void parse_cxx_spec(char *spec, struct pattern *p)
{
	memset(p, 0, sizeof(*p));
	p->name = spec;
	for (char *c = strchr(spec, ':'); c; c = strchr(c + 2, ':')) {
		if (c[1] == ':')
			continue;
		*c = '\0';
		if (strchr(spec, '.')) {
			p->file = spec;
			p->name = c + 1;
		} else {
			*c = ':';
		}
		break;
	}
}

static int matches_cxx(const struct pattern *p, const struct gprof_sym *s)
{
	if (p->file && (!s->file || strcmp(p->file, base_name(s->file))))
		return 0;
	char *shown = s->name ? demangle_for_display(s->name) : NULL;
	int yes = shown && demangled_name_matches(s->name, shown, p->name);
	free(shown);
	return yes;
}

/* Adds the ranges of the symbols P names (read as C++ with CXX) to T. */
static size_t collect(const struct gprof_symtab *st, const struct pattern *p, int cxx,
		      struct gprof_ranges *t)
{
	size_t found = 0;
	long prev = -2;

	for (size_t i = 0; i < st->n; i++) {
		if (cxx ? !matches_cxx(p, &st->syms[i]) : !matches(p, &st->syms[i]))
			continue;
		/* a run of consecutive symbols is one range, as gprof extends matches */
		if (prev == (long)i - 1 && t->n)
			t->r[t->n - 1].hi = st->syms[i].end_addr;
		else
			ranges_add(t, st->syms[i].addr, st->syms[i].end_addr);
		prev = (long)i;
		found++;
	}
	return found;
}

size_t gprof_spec_match(const struct gprof_symtab *st, const char *spec, struct gprof_ranges *t)
{
	char *copy = xstrdup(spec);
	struct pattern p;

	parse_spec(copy, &p);
	size_t found = collect(st, &p, 0, t);
	if (!found && (p.name || strstr(spec, "::") || strchr(spec, '('))) {
		memcpy(copy, spec, strlen(spec) + 1);
		parse_cxx_spec(copy, &p);
		found = collect(st, &p, 1, t);
	}
	free(copy);
	return found;
}

int gprof_arcspecs_has(const struct gprof_arcspecs *s, const struct gprof_sym *from,
		       const struct gprof_sym *to)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct gprof_arcspec *a = &s->a[i];
		if (!gprof_ranges_has(&a->from, from->addr))
			continue;
		for (size_t j = 0; j < a->to.n; j++)
			if (to->addr >= a->to.r[j].lo && to->end_addr <= a->to.r[j].hi)
				return 1;
	}
	return 0;
}

void gprof_arcspecs_release(struct gprof_arcspecs *s)
{
	for (size_t i = 0; i < s->n; i++) {
		gprof_ranges_release(&s->a[i].from);
		gprof_ranges_release(&s->a[i].to);
	}
	free(s->a);
	memset(s, 0, sizeof(*s));
}
