/*
 * The link-order files.  See writers.h.
 */
#include "optimize/writers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "outfile.h"
#include "xalloc.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void lor_member(FILE *f, const struct opt_graph *g, uint32_t fi, const char *indent,
		       size_t *order)
{
	const struct opt_func *fn = &g->funcs[fi];

	if (order)
		fprintf(f, "%s%5zu  ", indent, ++*order);
	else
		fprintf(f, "%s       ", indent);
	fprintf(f, "%-32s %8llu %12llu", fn->name, (unsigned long long)fn->size,
		(unsigned long long)fn->calls);
}

static void lor_group_origin(FILE *f, const struct opt_group *gr)
{
	if (gr->section)
		fprintf(f, "  %s", gr->section);
	if (gr->file)
		fprintf(f, " (%s)", gr->file);
}

static void lor_cliques(FILE *f, const struct opt_graph *g, const struct opt_layout *l)
{
	size_t order = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct opt_cluster *c = &l->clusters[i];
		fprintf(f, "clique %zu: %llu bytes, %llu calls, %.1f%% of the heat\n", i + 1,
			(unsigned long long)c->size, (unsigned long long)c->calls,
			pct(c->heat, g->total_heat));
		for (size_t k = 0; k < c->n; k++) {
			const struct opt_group *gr = &g->groups[c->groups[k]];
			if (gr->nmembers == 1) {
				lor_member(f, g, gr->members[0], "  ", &order);
				lor_group_origin(f, gr);
				fputc('\n', f);
				continue;
			}
			fprintf(f, "  %5zu  %-32s %8llu %12llu", ++order, "[fixed group]",
				(unsigned long long)gr->size, (unsigned long long)gr->calls);
			lor_group_origin(f, gr);
			fputc('\n', f);
			for (size_t m = 0; m < gr->nmembers; m++) {
				lor_member(f, g, gr->members[m], "    ", NULL);
				fputc('\n', f);
			}
		}
		fputc('\n', f);
	}
}

static const char *warning_advice(enum opt_warning_kind kind)
{
	switch (kind) {
	case OPT_W_FUNC_TOO_BIG:
		return "no function order helps inside it; only the layout of its blocks can "
		       "(a profile-guided compiler, or BOLT)";
	case OPT_W_GROUP_TOO_BIG:
		return "its functions share one input section and move together; compile its "
		       "file with -ffunction-sections";
	case OPT_W_NO_SIZE:
		return "placed, but not counted against the cache size";
	case OPT_W_STALE:
		return "the profile is older than the binary; left out of the order";
	case OPT_W_SHARED:
		return "a link order of this binary cannot move them";
	case OPT_W_UNCALLED:
		return "placed after the hot code, in the linker's default order";
	case OPT_W_KINDS: break;
	}
	return "";
}

static void lor_warnings(FILE *f, const struct opt_graph *g, const struct opt_warnings *w)
{
	char buf[512];

	fprintf(f, "warnings\n");
	if (!w->n)
		fprintf(f, "  none\n");
	for (size_t i = 0; i < w->n; i++) {
		const struct opt_warning *x = &w->list[i];
		if (!i || w->list[i - 1].kind != x->kind)
			fprintf(f, "  %s: %zu (%s)\n", opt_warning_title(x->kind), w->count[x->kind],
				warning_advice(x->kind));
		fprintf(f, "    %-40s %8llu bytes %12llu calls", opt_warning_subject(g, x, buf, sizeof(buf)),
			(unsigned long long)x->size, (unsigned long long)x->calls);
		if (x->kind == OPT_W_SHARED)
			fprintf(f, "  %s", g->funcs[x->index].object);
		else if (x->kind != OPT_W_GROUP_TOO_BIG && g->funcs[x->index].group != OPT_NONE)
			lor_group_origin(f, &g->groups[g->funcs[x->index].group]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void lor_groups(FILE *f, const struct opt_graph *g)
{
	size_t n = 0;

	fprintf(f, "fixed groups (functions that share an input section and move together)\n");
	for (size_t i = 0; i < g->ngroups; i++) {
		const struct opt_group *gr = &g->groups[i];
		if (gr->nmembers < 2)
			continue;
		n++;
		fprintf(f, " ");
		lor_group_origin(f, gr);
		fprintf(f, ": %llu bytes, %zu functions, %llu calls\n", (unsigned long long)gr->size,
			gr->nmembers, (unsigned long long)gr->calls);
		for (size_t m = 0; m < gr->nmembers; m++) {
			fprintf(f, "%s%s", m % 4 ? "  " : "    ", g->funcs[gr->members[m]].name);
			if (m % 4 == 3 || m + 1 == gr->nmembers)
				fputc('\n', f);
		}
	}
	if (!n)
		fprintf(f, "  none\n");
}

int opt_write_lor(const char *path, const struct opt_graph *g, const struct opt_layout *l,
		  const struct opt_warnings *w, const struct opt_output_info *info)
{
	struct outfile o;
	uint64_t bytes = 0, calls = 0;
	size_t funcs = 0;

	if (outfile_open(&o, path, OUTFILE_READABLE))
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		bytes += l->clusters[i].size;
		calls += l->clusters[i].calls;
		for (size_t k = 0; k < l->clusters[i].n; k++)
			funcs += g->groups[l->clusters[i].groups[k]].nmembers;
	}
	FILE *f = o.f;
	fprintf(f, "# callscope link order\n");
	fprintf(f, "# binary     %s\n", info->binary);
	fprintf(f, "# profile    %s\n", info->profile);
	fprintf(f, "# algorithm  %s (%s)\n", info->algorithm, info->algorithm_summary);
	fprintf(f, "# cache      %llu bytes; heat: %s\n", (unsigned long long)info->cache_size,
		info->weight);
	if (info->groups_source)
		fprintf(f, "# groups     input sections from %s\n", info->groups_source);
	else
		fprintf(f, "# groups     assumed: one function per input section (no map or objects given)\n");
	fprintf(f, "# hot code   %llu bytes, %zu functions in %zu clique%s, %.1f%% of the calls\n",
		(unsigned long long)bytes, funcs, l->n, l->n == 1 ? "" : "s", pct(calls, g->total_calls));
	fprintf(f, "#\n"
		   "# Cliques in link order: size, calls of the members, share of the heat;\n"
		   "# then the members in order: function, bytes, calls, input section (file).\n"
		   "# A fixed group (one input section holding several functions) is one member,\n"
		   "# its functions listed under it.\n\n");
	lor_cliques(f, g, l);
	lor_warnings(f, g, w);
	lor_groups(f, g);
	return outfile_commit(&o);
}

int opt_write_symbol_order(const char *path, const struct opt_graph *g,
			   const struct opt_layout *l)
{
	struct outfile o;

	if (outfile_open(&o, path, OUTFILE_READABLE))
		return -1;
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < l->clusters[i].n; k++) {
			const struct opt_group *gr = &g->groups[l->clusters[i].groups[k]];
			for (size_t m = 0; m < gr->nmembers; m++)
				fprintf(o.f, "%s\n", g->funcs[gr->members[m]].name);
		}
	return outfile_commit(&o);
}

/* qsort_r() comparators; the context is the graph. */
static int by_count(const void *a, const void *b, void *graph)
{
	const struct opt_graph *sort_graph = graph;
	const struct opt_arc *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	int c = strcmp(sort_graph->funcs[x->caller].name, sort_graph->funcs[y->caller].name);
	if (c)
		return c;
	return strcmp(sort_graph->funcs[x->callee].name, sort_graph->funcs[y->callee].name);
}

int opt_write_call_graph(const char *path, const struct opt_graph *g)
{
	struct opt_arc *arcs = xcalloc(g->narcs + 1, sizeof(*arcs));
	size_t n = 0;
	struct outfile o;

	for (size_t i = 0; i < g->narcs; i++) {
		const struct opt_arc *a = &g->arcs[i];
		if (g->funcs[a->caller].group == OPT_NONE || g->funcs[a->callee].group == OPT_NONE ||
		    a->caller == a->callee || !a->count)
			continue;
		arcs[n++] = *a;
	}
	qsort_r(arcs, n, sizeof(*arcs), by_count, (void *)g);
	if (outfile_open(&o, path, OUTFILE_READABLE)) {
		free(arcs);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(o.f, "%s %s %llu\n", g->funcs[arcs[i].caller].name,
			g->funcs[arcs[i].callee].name, (unsigned long long)arcs[i].count);
	free(arcs);
	return outfile_commit(&o);
}

static int by_section_name(const void *a, const void *b, void *graph)
{
	const struct opt_graph *sort_graph = graph;
	const struct opt_group *x = &sort_graph->groups[*(const uint32_t *)a];
	const struct opt_group *y = &sort_graph->groups[*(const uint32_t *)b];

	return strcmp(x->section, y->section);
}

/*
 * For each group, 1 if it has a section name no other group has (so the
 * name alone picks it), else 0.  A plain ".text" never does: the start
 * files and libraries the link adds have one too, and with --objects the
 * graph knows only the objects it was given.  Sorting the names keeps
 * this n log n: a large program has tens of thousands of sections, and
 * comparing each hot one with all of them took most of the command's
 * time.  Returns a malloc'd array of g->ngroups flags the caller frees.
 */
static uint8_t *unique_sections(const struct opt_graph *g)
{
	uint8_t *unique = xcalloc(g->ngroups + 1, 1);
	uint32_t *named = xcalloc(g->ngroups + 1, sizeof(*named));
	size_t n = 0;

	for (size_t i = 0; i < g->ngroups; i++)
		if (g->groups[i].section)
			named[n++] = (uint32_t)i;
	qsort_r(named, n, sizeof(*named), by_section_name, (void *)g);
	for (size_t i = 0; i < n; i++) {
		const char *name = g->groups[named[i]].section;
		unique[named[i]] = strcmp(name, ".text") &&
				   !(i && !strcmp(g->groups[named[i - 1]].section, name)) &&
				   !(i + 1 < n && !strcmp(g->groups[named[i + 1]].section, name));
	}
	free(named);
	return unique;
}

int opt_write_gold_order(const char *path, const struct opt_graph *g,
			 const struct opt_layout *l, struct opt_write_stats *stats)
{
	struct outfile o;

	stats->gold_unnamed = 0;
	if (outfile_open(&o, path, OUTFILE_READABLE))
		return -1;
	uint8_t *unique = unique_sections(g);
	/* Matches nothing in a normal link (see writers.h). */
	fprintf(o.f, "%s\n", OPT_PAD_SECTION);
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < l->clusters[i].n; k++) {
			uint32_t gr = l->clusters[i].groups[k];
			if (unique[gr])
				fprintf(o.f, "%s\n", g->groups[gr].section);
			else
				stats->gold_unnamed++;
		}
	free(unique);
	return outfile_commit(&o);
}

/* Writes S as a linker script token, quoted when it holds odd characters. */
static void script_word(FILE *f, const char *s)
{
	if (strpbrk(s, " \t\"(){};,="))
		fprintf(f, "\"%s\"", s);
	else
		fputs(s, f);
}

/*
 * The file pattern of an input file as the map printed it: "lib.a(m.o)"
 * becomes ld's archive:member form "lib.a:m.o".  A plain file name in a
 * script makes ld load that file as one more input; a pattern does not, so
 * the last character is written as a one-character class ("m.[o]"), which
 * still matches the one name and nothing else.
 */
static void script_file(FILE *f, const char *file)
{
	size_t n = strlen(file);
	const char *open = strrchr(file, '(');
	char *s = xstrdup(file);

	if (n > 2 && file[n - 1] == ')' && open && open > file) {
		s[open - file] = ':';
		s[--n] = 0;
	}
	if (n && !strpbrk(s, "*?[]")) {
		char last = s[n - 1];
		s[n - 1] = 0;
		fprintf(f, "%s[%c]", s, last);
	} else {
		script_word(f, s);
	}
	free(s);
}

int opt_write_ld_script(const char *path, const struct opt_graph *g,
			const struct opt_layout *l, const struct opt_output_info *info)
{
	struct outfile o;

	if (outfile_open(&o, path, OUTFILE_READABLE))
		return -1;
	uint8_t *unique = unique_sections(g);
	FILE *f = o.f;
	fprintf(f, "/*\n * callscope link order of %s (%s, cache %llu bytes).\n", info->binary,
		info->algorithm, (unsigned long long)info->cache_size);
	fprintf(f, " * Link with -Wl,-T,%s: the INSERT at the end adds this output section\n"
		   " * before .text of the default script, so everything else keeps its place.\n */\n",
		path);
	fprintf(f, "SECTIONS\n{\n  .text.callscope :\n  {\n");
	fprintf(f, "    /* matches nothing in a normal link: 'callscope optimize --measure\n"
		   "       --relink' puts padding here to move the code that follows */\n"
		   "    *(%s)\n", OPT_PAD_SECTION);
	for (size_t i = 0; i < l->n; i++) {
		const struct opt_cluster *c = &l->clusters[i];
		fprintf(f, "    /* clique %zu: %llu bytes, %llu calls */\n", i + 1,
			(unsigned long long)c->size, (unsigned long long)c->calls);
		for (size_t k = 0; k < c->n; k++) {
			uint32_t gi = c->groups[k];
			const struct opt_group *gr = &g->groups[gi];
			if (!gr->section)
				continue;
			fputs("    ", f);
			if (unique[gi] || !gr->file)
				fputs("*", f);
			else
				script_file(f, gr->file);
			fputs("(", f);
			script_word(f, gr->section);
			fputs(")\n", f);
		}
	}
	fprintf(f, "  }\n}\nINSERT BEFORE .text;\n");
	free(unique);
	return outfile_commit(&o);
}
