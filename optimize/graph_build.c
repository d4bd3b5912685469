/*
 * The optimizer's graph from a profile.  See graph_build.h.
 *
 * Every function of the binary's .text becomes a node, called or not, so
 * that the layout knows what it leaves behind; aliases (several names at
 * one address) are one node under the global name.  Profile functions are
 * matched to nodes by address when the binary is the recorded file, by
 * name when it is another build of it (the usual case: record an
 * instrumented build, lay out the release build).  Profile functions the
 * binary does not have are kept as stale nodes, and those of other
 * objects as shared ones, so the warnings can name them with their calls.
 */
#include "optimize/graph_build.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/samples.h"
#include "optimize/clone_names.h"
#include "xalloc.h"

int opt_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * The binary function called NAME, preferring one of SIZE bytes when
 * static functions of several files share the name; -1 if none.
 */
static long find_by_name(const struct elf_funcs *t, const struct elf_name_index *ix,
			 const char *name, uint64_t size, int *ambiguous)
{
	const size_t *first;
	size_t n = elf_name_lookup(ix, name, &first);

	*ambiguous = n > 1;
	if (!n)
		return -1;
	for (size_t k = 0; k < n; k++)
		if (t->funcs[first[k]].size == size)
			return (long)first[k];
	return (long)first[0];
}

/*
 * The piece of the binary that a profile function the binary does not
 * name stands for: the two builds cloned it differently (see
 * clone_names.h).  Among the binary's functions of the same base name
 * and the same temperature (a hot piece never goes to a .cold one):
 * the one of SIZE bytes, else the base name itself, else the first.
 * -1 if there is none.
 */
static long find_piece(const struct elf_funcs *t, const char *name, uint64_t size)
{
	long same_size = -1, plain = -1, first = -1;
	int cold = clone_is_cold(name);

	for (size_t i = 0; i < t->n; i++) {
		const struct elf_func *f = &t->funcs[i];
		if (!f->in_text || clone_is_cold(f->name) != cold || !clone_same_base(name, f->name))
			continue;
		if (first < 0)
			first = (long)i;
		if (same_size < 0 && size && f->size == size)
			same_size = (long)i;
		if (plain < 0 && clone_base_len(f->name) == strlen(f->name))
			plain = (long)i;
	}
	return same_size >= 0 ? same_size : plain >= 0 ? plain : first;
}

struct builder {
	const struct opt_build_input *in;
	struct opt_graph *g;
	struct elf_name_index *ix;
	uint32_t *node_of;	/* binary function -> graph function, OPT_NONE if not code */
};

static void add_binary_functions(struct builder *b)
{
	const struct elf_funcs *t = b->in->binary;

	b->node_of = xcalloc(t->n + 1, sizeof(*b->node_of));
	for (size_t i = 0; i < t->n; i++) {
		const struct elf_func *f = &t->funcs[i];
		b->node_of[i] = OPT_NONE;
		if (!f->in_text)
			continue;
		if (i && t->funcs[i - 1].addr == f->addr && b->node_of[i - 1] != OPT_NONE) {
			b->node_of[i] = b->node_of[i - 1];	/* an alias */
			continue;
		}
		const size_t *first;
		unsigned flags = OPT_UNCALLED;
		if (f->local && elf_name_lookup(b->ix, f->name, &first) > 1)
			flags |= OPT_AMBIGUOUS;
		b->node_of[i] = opt_graph_add_func(b->g, f->name, b->in->binary_path, f->addr,
						   f->size, flags);
	}
}

/* The graph function for profile function PF, adding a stale or shared one. */
static uint32_t node_for(struct builder *b, const struct func *pf, int *program_cache)
{
	const struct opt_build_input *in = b->in;
	long k = -1;

	if (!*program_cache)
		*program_cache = opt_same_file(pf->object, in->program) ? 1 : 2;
	if (*program_cache == 2)
		return opt_graph_add_func(b->g, pf->symbol, pf->object, pf->addr, pf->size, OPT_SHARED);
	if (in->same_file) {
		k = elf_funcs_at(in->binary, pf->addr);
	} else {
		int ambiguous;
		k = find_by_name(in->binary, b->ix, pf->symbol, pf->size, &ambiguous);
		if (k < 0)
			k = find_piece(in->binary, pf->symbol, pf->size);
	}
	if (k >= 0 && b->node_of[k] != OPT_NONE)
		return b->node_of[k];
	return opt_graph_add_func(b->g, pf->symbol, pf->object, 0, pf->size, OPT_STALE);
}

/*
 * A piece the release build split off a function (foo.part.0, foo.isra.0)
 * that the profiled build did not: the profile never names it, yet it runs
 * whenever its function does.  It gets its function's calls and heat and
 * an arc from it, so the layout keeps the two together.  Cold pieces stay
 * uncalled: they hold what the compiler expects never to run.
 */
static void heat_unprofiled_pieces(struct builder *b)
{
	const struct elf_funcs *t = b->in->binary;
	char *base = NULL;
	size_t alloc = 0;

	for (size_t i = 0; i < t->n; i++) {
		uint32_t node = b->node_of[i];
		const char *name = t->funcs[i].name;
		size_t len = clone_base_len(name);
		if (node == OPT_NONE || len == strlen(name) || clone_is_cold(name))
			continue;
		struct opt_func *piece = &b->g->funcs[node];
		if (!(piece->flags & OPT_UNCALLED))
			continue;
		ALLOC_GROW(base, len + 1, alloc);
		memcpy(base, name, len);
		base[len] = 0;
		const size_t *first;
		size_t n = elf_name_lookup(b->ix, base, &first);
		for (size_t k = 0; k < n; k++) {
			uint32_t whole = b->node_of[first[k]];
			if (whole == OPT_NONE || whole == node || !b->g->funcs[whole].calls)
				continue;
			piece->calls = b->g->funcs[whole].calls;
			piece->heat = b->g->funcs[whole].heat;
			piece->flags &= ~(unsigned)OPT_UNCALLED;
			opt_graph_add_calls(b->g, whole, node, b->g->funcs[whole].calls);
			break;
		}
	}
	free(base);
}

/* Functions that share an input section of the map form one group. */
static void groups_from_map(struct builder *b)
{
	const struct link_map *m = b->in->map;
	uint32_t *group_of = xcalloc(m->n + 1, sizeof(*group_of));

	for (size_t i = 0; i < m->n; i++)
		group_of[i] = OPT_NONE;
	for (size_t i = 0; i < b->g->nfuncs; i++) {
		struct opt_func *f = &b->g->funcs[i];
		if (f->flags & (OPT_STALE | OPT_SHARED))
			continue;
		const struct link_section *s = link_map_find(m, f->addr);
		if (!s)
			continue;
		size_t si = (size_t)(s - m->sections);
		if (group_of[si] == OPT_NONE)
			group_of[si] = opt_graph_add_group(b->g, s->name, s->file, s->addr, s->size);
		opt_graph_assign(b->g, (uint32_t)i, group_of[si]);
	}
	free(group_of);
}

/*
 * The binary function that member K of object section S became, or -1.
 * A name the binary has once is enough.  A static function whose name
 * other files use too is found by its offset from BASE, the address the
 * section got (known when another member's name is unique; UINT64_MAX
 * otherwise), else by its size when that singles it out.  With
 * BY_LINK_ORDER, a name and size several files share goes to the first
 * such function by address not yet taken: sections are matched in the
 * order the objects were given, and a linker lays out input sections of
 * one name in the order of its command line.
 */
static long object_func_in_binary(struct builder *b, const struct object_section *s, size_t k,
				  uint64_t base, int by_link_order)
{
	const struct elf_funcs *t = b->in->binary;
	const struct object_func *of = &s->funcs[k];
	const size_t *first;
	size_t n = elf_name_lookup(b->ix, of->name, &first);
	long only = -1;
	size_t fits = 0;

	if (n == 1)
		return (long)first[0];
	for (size_t i = 0; i < n; i++) {
		const struct elf_func *f = &t->funcs[first[i]];
		if (base != UINT64_MAX) {
			if (f->addr == base + of->offset)
				return (long)first[i];
			continue;
		}
		uint32_t node = b->node_of[first[i]];
		if (f->size != of->size || node == OPT_NONE || b->g->funcs[node].group != OPT_NONE)
			continue;
		if (by_link_order)
			return (long)first[i];	/* the first free one, by address */
		only = (long)first[i];
		fits++;
	}
	return fits == 1 ? only : -1;
}

/*
 * Makes object section S one group if every function in it is found in
 * the binary and none is in a group yet; returns 1 if it did.
 */
static int group_object_section(struct builder *b, const struct object_section *s,
				int by_link_order, uint32_t **members, size_t *alloc)
{
	const struct elf_funcs *t = b->in->binary;
	uint64_t base = UINT64_MAX, lowest = UINT64_MAX;
	size_t n = 0;

	/* Where the section landed, from a member whose name is unique. */
	for (size_t k = 0; k < s->nfuncs && base == UINT64_MAX; k++) {
		const size_t *first;
		if (elf_name_lookup(b->ix, s->funcs[k].name, &first) == 1)
			base = t->funcs[first[0]].addr - s->funcs[k].offset;
	}
	for (size_t k = 0; k < s->nfuncs; k++) {
		long at = object_func_in_binary(b, s, k, base, by_link_order);
		if (at < 0 || b->node_of[at] == OPT_NONE ||
		    b->g->funcs[b->node_of[at]].group != OPT_NONE)
			return 0;
		ALLOC_GROW(*members, n + 1, *alloc);
		(*members)[n++] = b->node_of[at];
		if (t->funcs[at].addr < lowest)
			lowest = t->funcs[at].addr;
	}
	if (!n)
		return 0;
	/* Aliases name one node twice; assign each node once. */
	uint32_t gr = opt_graph_add_group(b->g, s->name, s->file, lowest, s->size);
	for (size_t k = 0; k < n; k++)
		if (b->g->funcs[(*members)[k]].group == OPT_NONE)
			opt_graph_assign(b->g, (*members)[k], gr);
	return 1;
}

/*
 * Functions that the object files define in one section form one group.
 * Matched by name, and where static functions of several files share a
 * name, by offset or size (see object_func_in_binary()); what those cannot
 * tell apart is matched by link order in a second pass, after every
 * section that could be matched for sure.
 */
static void groups_from_objects(struct builder *b)
{
	const struct object_sections *os = b->in->objects;
	uint8_t *done = xcalloc(os->n + 1, 1);
	uint32_t *members = NULL;
	size_t alloc = 0;

	for (int by_link_order = 0; by_link_order < 2; by_link_order++)
		for (size_t i = 0; i < os->n; i++)
			if (!done[i])
				done[i] = (uint8_t)group_object_section(b, &os->sections[i],
									by_link_order, &members,
									&alloc);
	free(members);
	free(done);
}

const char *opt_weight_name(enum opt_weight weight)
{
	switch (weight) {
	case OPT_WEIGHT_TIME:
		return "self time";
	case OPT_WEIGHT_SAMPLES:
		return "self samples";
	case OPT_WEIGHT_MIXED:
		return "share of calls plus share of self samples";
	case OPT_WEIGHT_CALLS:
		break;
	}
	return "calls";
}

struct heat_totals {
	uint64_t calls, self_ns, self_samples;
};

/* The share of TOTAL that PART is, on a scale of 2^30. */
static uint64_t share(uint64_t part, uint64_t total)
{
	return total ? (uint64_t)((double)part / (double)total * (double)(1u << 30)) : 0;
}

/*
 * PF's heat by WEIGHT (see graph_build.h); a recording without what the
 * weight asks for (no times, no samples) falls back to calls.
 */
static uint64_t func_heat(const struct func *pf, enum opt_weight weight,
			  const struct heat_totals *t)
{
	switch (weight) {
	case OPT_WEIGHT_TIME:
		return t->self_ns ? pf->self_ns : pf->calls;
	case OPT_WEIGHT_SAMPLES:
		return t->self_samples ? pf->self_samples : pf->calls;
	case OPT_WEIGHT_MIXED:
		if (!t->self_samples)
			return pf->calls;
		return share(pf->calls, t->calls) + share(pf->self_samples, t->self_samples);
	case OPT_WEIGHT_CALLS:
		break;
	}
	return pf->calls;
}

struct opt_graph *opt_graph_build(const struct opt_build_input *in)
{
	const struct profile *p = in->profile;
	struct builder b = { in, opt_graph_new(), elf_name_index_new(in->binary), NULL };
	uint32_t *node = xcalloc(p->nfuncs + 1, sizeof(*node));
	int samples_only = profile_samples_only(p);
	struct heat_totals totals = { 0, 0, 0 };

	add_binary_functions(&b);
	for (size_t i = 0; i < p->nfuncs; i++) {
		totals.calls += p->funcs[i].calls;
		totals.self_ns += p->funcs[i].self_ns;
		totals.self_samples += p->funcs[i].self_samples;
	}

	/* One answer per object path: is it the program? */
	char **objects = NULL;
	int *verdict = NULL;
	size_t nobjects = 0, objects_alloc = 0, verdict_alloc = 0;
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *pf = &p->funcs[i];
		size_t k;
		for (k = 0; k < nobjects && strcmp(objects[k], pf->object); k++)
			;
		if (k == nobjects) {
			ALLOC_GROW(objects, nobjects + 1, objects_alloc);
			ALLOC_GROW(verdict, nobjects + 1, verdict_alloc);
			objects[nobjects] = pf->object;
			verdict[nobjects++] = 0;
		}
		node[i] = node_for(&b, pf, &verdict[k]);
		struct opt_func *f = &b.g->funcs[node[i]];
		if (samples_only) {
			/* No calls: "calls" are the samples with the function on
			 * the stack, heat those in the function itself. */
			f->calls += pf->samples;
			f->heat += pf->self_samples;
		} else {
			f->calls += pf->calls;
			f->heat += func_heat(pf, in->weight, &totals);
		}
		if (f->calls || f->heat)
			f->flags &= ~(unsigned)OPT_UNCALLED;
	}
	free(objects);
	free(verdict);

	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (a->caller == FUNC_NONE || a->caller >= p->nfuncs || a->callee >= p->nfuncs)
			continue;
		if (node[a->caller] != node[a->callee])
			opt_graph_add_calls(b.g, node[a->caller], node[a->callee], a->count);
	}
	if (!in->same_file)
		heat_unprofiled_pieces(&b);
	if (in->map)
		groups_from_map(&b);
	else if (in->objects)
		groups_from_objects(&b);
	opt_graph_finish(b.g);

	free(node);
	free(b.node_of);
	elf_name_index_free(b.ix);
	return b.g;
}
