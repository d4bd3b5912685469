/*
 * From a profile of one build to the graph of another: gcc's clone names
 * (foo.cold, foo.part.0, foo.isra.0, foo.constprop.1) are matched under
 * the release binary's names, sizes come from the release binary, pieces
 * the profiled build never made inherit their function's heat; and the
 * orderings built on that graph: dense-chains (densest first, likely
 * callers only) and the cold pieces sunk after all hot code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "optimize/clone_names.h"
#include "symbols/elf_funcs.h"
#include "optimize/graph_build.h"
#include "optimize/optimize.h"
#include "xalloc.h"

static void test_clone_base(void **state)
{
	(void)state;
	assert_int_equal(clone_base_len("foo"), 3);
	assert_int_equal(clone_base_len("foo.cold"), 3);
	assert_int_equal(clone_base_len("foo.part.0"), 3);
	assert_int_equal(clone_base_len("foo.isra.12"), 3);
	assert_int_equal(clone_base_len("foo.constprop.0.isra.0"), 3);
	assert_int_equal(clone_base_len("foo.part.0.cold"), 3);
	assert_int_equal(clone_base_len("foo.lto_priv.0"), 3);
	/* Not gcc's suffixes: the whole name is the base. */
	assert_int_equal(clone_base_len("foo.bar"), 7);
	assert_int_equal(clone_base_len("foo.part"), 8);
	assert_int_equal(clone_base_len("foo.isra.x"), 10);
	assert_int_equal(clone_base_len("foo.coldest"), 11);
	assert_int_equal(clone_base_len(".cold"), 0);

	assert_true(clone_is_cold("foo.cold"));
	assert_true(clone_is_cold("foo.isra.0.cold"));
	assert_false(clone_is_cold("foo"));
	assert_false(clone_is_cold("foo.part.0"));

	assert_true(clone_same_base("foo.isra.0", "foo.constprop.3"));
	assert_true(clone_same_base("foo", "foo.part.0"));
	assert_false(clone_same_base("foo", "foobar.part.0"));
	assert_false(clone_same_base("foo.isra.0", "fo.isra.0"));
}

/* A release binary's symbol table, by hand: name, address, size. */
static void binary_add(struct elf_funcs *t, size_t *alloc, const char *name, uint64_t addr,
		       uint64_t size)
{
	ALLOC_GROW(t->funcs, t->n + 1, *alloc);
	struct elf_func *f = &t->funcs[t->n++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->addr = addr;
	f->size = size;
	f->local = strchr(name, '.') != NULL;
	f->in_text = 1;
}

static uint32_t prof_func(struct profile *p, const char *name, uint64_t size, uint64_t calls)
{
	uint32_t f = profile_intern_func(p, name, "/build/prog-pg", 0x400000, size, NULL, 0);
	p->funcs[f].calls = calls;
	return f;
}

static void prof_arc(struct profile *p, uint32_t from, uint32_t to, uint64_t count)
{
	uint32_t a = profile_intern_arc(p, from, to);
	p->arcs[a].count = count;
}

/* The graph function called NAME, or NULL. */
static const struct opt_func *func_named(const struct opt_graph *g, const char *name)
{
	for (size_t i = 0; i < g->nfuncs; i++)
		if (!strcmp(g->funcs[i].name, name))
			return &g->funcs[i];
	return NULL;
}

/*
 * The instrumented build (profile) and the release build (binary) cloned
 * differently: the profile's parse.isra.0 is the binary's
 * parse.constprop.1, its lookup.constprop.0 the binary's plain lookup;
 * the binary split run into run and run.part.0 and has cold pieces the
 * profile never saw.  Sizes are the binary's, not the profile's.
 */
static void test_release_names_and_sizes(void **state)
{
	struct elf_funcs bin = { 0 };
	size_t alloc = 0;
	(void)state;

	binary_add(&bin, &alloc, "main", 0x1000, 80);
	binary_add(&bin, &alloc, "parse.constprop.1", 0x1100, 300);
	binary_add(&bin, &alloc, "lookup", 0x1400, 120);
	binary_add(&bin, &alloc, "run", 0x1500, 60);
	binary_add(&bin, &alloc, "run.part.0", 0x1600, 500);
	binary_add(&bin, &alloc, "run.cold", 0x9000, 40);
	binary_add(&bin, &alloc, "parse.constprop.1.cold", 0x9100, 90);

	struct profile *p = profile_new();
	uint32_t pm = prof_func(p, "main", 120, 1);
	uint32_t pp = prof_func(p, "parse.isra.0", 420, 500);
	uint32_t pl = prof_func(p, "lookup.constprop.0", 200, 9000);
	uint32_t pr = prof_func(p, "run", 900, 40);
	uint32_t pgone = prof_func(p, "inlined_away", 50, 7);
	prof_arc(p, pm, pp, 500);
	prof_arc(p, pp, pl, 9000);
	prof_arc(p, pm, pr, 40);
	prof_arc(p, pm, pgone, 7);

	struct opt_build_input in = {
		.profile = p,
		.program = "/build/prog-pg",
		.binary_path = "/build/prog",
		.binary = &bin,
		.same_file = 0,
		.weight = OPT_WEIGHT_CALLS,
	};
	struct opt_graph *g = opt_graph_build(&in);

	const struct opt_func *parse = func_named(g, "parse.constprop.1");
	assert_non_null(parse);
	assert_int_equal(parse->calls, 500);
	assert_int_equal(parse->size, 300);	/* the release binary's size */
	assert_int_equal(parse->flags & OPT_STALE, 0);
	const struct opt_func *lookup = func_named(g, "lookup");
	assert_int_equal(lookup->calls, 9000);
	assert_int_equal(lookup->size, 120);
	/* The piece the profiled build never made runs with its function. */
	const struct opt_func *part = func_named(g, "run.part.0");
	assert_int_equal(part->calls, 40);
	assert_int_equal(part->flags & OPT_UNCALLED, 0);
	/* Cold pieces stay cold; a hot profile name never lands on one. */
	assert_true(func_named(g, "run.cold")->flags & OPT_UNCALLED);
	assert_true(func_named(g, "parse.constprop.1.cold")->flags & OPT_UNCALLED);
	/* A function the release build inlined is stale, not forced onto another. */
	assert_true(func_named(g, "inlined_away")->flags & OPT_STALE);
	assert_null(func_named(g, "parse.isra.0"));
	assert_null(func_named(g, "lookup.constprop.0"));

	/* run and run.part.0 end up next to each other. */
	struct opt_params params = { 32768 };
	struct opt_layout l = { 0 };
	dense_chains_layout(g, &params, &l);
	int run_at = -1, part_at = -1, at = 0;
	for (size_t i = 0; i < l.n; i++)
		for (size_t k = 0; k < l.clusters[i].n; k++, at++) {
			const struct opt_group *gr = &g->groups[l.clusters[i].groups[k]];
			const char *name = g->funcs[gr->members[0]].name;
			if (!strcmp(name, "run"))
				run_at = at;
			if (!strcmp(name, "run.part.0"))
				part_at = at;
		}
	assert_true(run_at >= 0);
	assert_int_equal(part_at, run_at + 1);

	opt_layout_free(&l);
	opt_graph_free(g);
	profile_free(p);
	elf_funcs_release(&bin);
}

static uint32_t node(struct opt_graph *g, const char *name, uint64_t addr, uint64_t size,
		     uint64_t calls, uint64_t heat)
{
	uint32_t f = opt_graph_add_func(g, name, "/bin/prog", addr, size, 0);
	g->funcs[f].calls = calls;
	g->funcs[f].heat = heat;
	return f;
}

/* The names in link order, separated by spaces (one function per group). */
static char *order_of(const struct opt_graph *g, const struct opt_layout *l)
{
	char *s = xcalloc(4096, 1);

	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < l->clusters[i].n; k++) {
			size_t used = strlen(s);
			snprintf(s + used, 4096 - used, "%s%s", *s ? " " : "",
				 g->funcs[g->groups[l->clusters[i].groups[k]].members[0]].name);
		}
	return s;
}

/*
 * An interpreter: loop (called once, 2000 bytes, nearly all the time)
 * calls op (small, called often) and, rarely, big_helper (large, lukewarm).
 * By heat per byte, loop's chain leads.  shared is called 990 times by op
 * and 10 by rare_caller: too rarely by the latter to follow it.  big_helper
 * is the least dense, but loop's chain calls it 50 times and rare_caller
 * only 10: the clusters are linked by their calls, so it comes next.
 * Clusters stay within the cache.
 */
static void test_dense_chains(void **state)
{
	struct opt_graph *g = opt_graph_new();
	(void)state;
	uint32_t loop = node(g, "loop", 0x1000, 2000, 1, 90000);
	uint32_t op = node(g, "op", 0x2000, 100, 50000, 9000);
	uint32_t big = node(g, "big_helper", 0x3000, 30000, 50, 1000);
	uint32_t rare = node(g, "rare_caller", 0x10000, 200, 3, 30);
	uint32_t shared = node(g, "shared", 0x11000, 100, 1000, 500);
	opt_graph_add_calls(g, loop, op, 50000);
	opt_graph_add_calls(g, loop, big, 50);
	opt_graph_add_calls(g, op, shared, 990);
	opt_graph_add_calls(g, rare, shared, 10);
	opt_graph_finish(g);

	struct opt_params p = { 4096 };
	struct opt_layout l = { 0 };
	dense_chains_layout(g, &p, &l);
	char *order = order_of(g, &l);
	assert_string_equal(order, "loop op shared big_helper rare_caller");
	free(order);
	assert_int_equal(l.clusters[0].size, 2200);
	opt_layout_free(&l);

	/* A 1024-byte cache: loop cannot take op and shared along; their
	 * pair is denser than loop alone and goes first, loop (50000 calls
	 * with it) next. */
	p.cache_size = 1024;
	dense_chains_layout(g, &p, &l);
	order = order_of(g, &l);
	assert_string_equal(order, "op shared loop big_helper rare_caller");
	free(order);
	for (size_t i = 0; i < l.n; i++)
		assert_true(l.clusters[i].n == 1 || l.clusters[i].size <= 1024);
	opt_layout_free(&l);
	opt_graph_free(g);
}

/* Cold pieces and unlikely sections go after all the hot code, in one last cluster. */
static void test_sink_cold(void **state)
{
	struct opt_graph *g = opt_graph_new();
	(void)state;
	uint32_t a = node(g, "a", 0x1000, 100, 100, 100);
	uint32_t ac = node(g, "a.cold", 0x9000, 50, 5, 500);
	uint32_t b = node(g, "b", 0x2000, 100, 50, 50);
	uint32_t u = node(g, "u", 0x3000, 100, 10, 10);
	uint32_t gu = opt_graph_add_group(g, ".text.unlikely.u", "u.o", 0x3000, 100);
	opt_graph_assign(g, u, gu);
	opt_graph_add_calls(g, a, ac, 5);
	opt_graph_add_calls(g, a, b, 50);
	opt_graph_add_calls(g, b, u, 10);
	opt_graph_finish(g);

	struct opt_params p = { 32768 };
	struct opt_layout l = { 0 };
	dense_chains_layout(g, &p, &l);
	opt_layout_sink_cold(g, &l);
	char *order = order_of(g, &l);
	assert_string_equal(order, "a b a.cold u");
	free(order);
	assert_int_equal(l.clusters[l.n - 1].n, 2);
	opt_layout_free(&l);
	opt_graph_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clone_base),
		cmocka_unit_test(test_release_names_and_sizes),
		cmocka_unit_test(test_dense_chains),
		cmocka_unit_test(test_sink_cold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
