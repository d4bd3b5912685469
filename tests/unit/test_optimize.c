/*
 * The optimizer on hand-made call graphs: every algorithm places each hot
 * group once and never splits a fixed group; the capped ones respect the
 * cache size; heavier arcs end up adjacent first; the output does not
 * depend on the order the graph was given in.  Then the readers (linker
 * maps, cachegrind output), the page count and the writers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optimize/cachegrind.h"
#include "symbols/elf_funcs.h"
#include "optimize/optimize.h"
#include "optimize/pages.h"
#include "optimize/paired.h"
#include "optimize/sections.h"
#include "optimize/warnings.h"
#include "optimize/writers.h"
#include "xalloc.h"

/* The capped algorithms, and all of them. */
static const char *const capped[] = { "dense-chains", "cph", "c3", "cache-sort",
				       "cache-sort-callers" };
static const char *const all[] = { "dense-chains", "cph", "c3", "pettis-hansen", "cache-sort",
				    "cache-sort-callers", "executed" };

static uint32_t add(struct opt_graph *g, const char *name, uint64_t addr, uint64_t size,
		    uint64_t calls)
{
	uint32_t f = opt_graph_add_func(g, name, "/bin/prog", addr, size, 0);
	g->funcs[f].calls = calls;
	g->funcs[f].heat = calls * 10;
	return f;
}

static void layout_of(const struct opt_graph *g, const char *alg, uint64_t cache,
		      struct opt_layout *l)
{
	const struct opt_algorithm *a = opt_algorithm_find(alg);
	struct opt_params p = { cache };

	assert_non_null(a);
	memset(l, 0, sizeof(*l));
	a->run(g, &p, l);
}

/* The functions in link order, as names separated by spaces. */
static char *order_of(const struct opt_graph *g, const struct opt_layout *l)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < g->nfuncs; i++)
		len += strlen(g->funcs[i].name) + 1;
	s = xcalloc(len, 1);
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < l->clusters[i].n; k++) {
			const struct opt_group *gr = &g->groups[l->clusters[i].groups[k]];
			for (size_t m = 0; m < gr->nmembers; m++) {
				size_t used = strlen(s);
				snprintf(s + used, len - used, "%s%s", *s ? " " : "",
					 g->funcs[gr->members[m]].name);
			}
		}
	return s;
}

/* Position of NAME in an order string (0-based, in words), or -1. */
static int position(const char *order, const char *name)
{
	char *copy = xstrdup(order), *save = NULL;
	int i = 0, at = -1;

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save), i++)
		if (!strcmp(w, name)) {
			at = i;
			break;
		}
	free(copy);
	return at;
}

/* Every hot group exactly once, no cold one, and the cluster sums right. */
static void check_complete(const struct opt_graph *g, const struct opt_layout *l)
{
	int *seen = xcalloc(g->ngroups + 1, sizeof(*seen));

	for (size_t i = 0; i < l->n; i++) {
		uint64_t size = 0;
		assert_true(l->clusters[i].n > 0);
		for (size_t k = 0; k < l->clusters[i].n; k++) {
			uint32_t gr = l->clusters[i].groups[k];
			assert_true(gr < g->ngroups);
			seen[gr]++;
			size += g->groups[gr].size;
		}
		assert_int_equal(size, l->clusters[i].size);
	}
	for (size_t i = 0; i < g->ngroups; i++)
		assert_int_equal(seen[i], opt_group_hot(&g->groups[i]) ? 1 : 0);
	free(seen);
}

/* Lays G out with ALG and checks the order is EXPECTED. */
static void assert_order(const struct opt_graph *g, const char *alg, uint64_t cache,
			 const char *expected)
{
	struct opt_layout l;

	layout_of(g, alg, cache, &l);
	check_complete(g, &l);
	char *order = order_of(g, &l);
	assert_string_equal(order, expected);
	free(order);
	opt_layout_free(&l);
}

/* A pseudo-random program: N functions, random sizes and calls. */
static struct opt_graph *random_graph(unsigned n, unsigned seed, int grouped)
{
	struct opt_graph *g = opt_graph_new();
	uint64_t x = seed * 2654435761u + 1;
	uint64_t addr = 0x1000;

#define NEXT() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	for (unsigned i = 0; i < n; i++) {
		char name[16];
		uint64_t size = 16 + NEXT() % 1500;
		snprintf(name, sizeof(name), "f%u", i);
		add(g, name, addr, size, NEXT() % 4 ? NEXT() % 1000 : 0);
		addr += size;
	}
	for (unsigned i = 0; i < 3 * n; i++) {
		uint32_t a = (uint32_t)(NEXT() % n), b = (uint32_t)(NEXT() % n);
		if (a != b && g->funcs[a].calls && g->funcs[b].calls)
			opt_graph_add_calls(g, a, b, 1 + NEXT() % 5000);
	}
	if (grouped)
		/* Every run of three functions shares one input section. */
		for (unsigned i = 0; i + 2 < n; i += 6) {
			uint64_t size = g->funcs[i].size + g->funcs[i + 1].size + g->funcs[i + 2].size;
			uint32_t gr = opt_graph_add_group(g, ".text", "lib.a(x.o)", g->funcs[i].addr, size);
			for (unsigned k = 0; k < 3; k++)
				opt_graph_assign(g, i + k, gr);
		}
#undef NEXT
	opt_graph_finish(g);
	return g;
}

static void test_cache_size_respected(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 20; seed++) {
		struct opt_graph *g = random_graph(80, seed, seed % 2);
		for (size_t a = 0; a < sizeof(capped) / sizeof(capped[0]); a++) {
			struct opt_layout l;
			layout_of(g, capped[a], 4096, &l);
			check_complete(g, &l);
			for (size_t i = 0; i < l.n; i++)
				if (l.clusters[i].n > 1)
					assert_true(l.clusters[i].size <= 4096);
			opt_layout_free(&l);
		}
		opt_graph_free(g);
	}
}

/*
 * cache-sort keeps its candidate merges in a queue and drops the stale ones
 * when they pile up: on a program large enough for that to happen many
 * times, every hot group is still placed once and every chain fits.
 */
static void test_cache_sort_large(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 2; seed++) {
		struct opt_graph *g = random_graph(3000, seed, seed % 2);
		struct opt_layout l;
		layout_of(g, "cache-sort", 16384, &l);
		check_complete(g, &l);
		size_t merged = 0;
		for (size_t i = 0; i < l.n; i++)
			if (l.clusters[i].n > 1) {
				assert_true(l.clusters[i].size <= 16384);
				merged++;
			}
		assert_true(merged > 50);
		opt_layout_free(&l);
		opt_graph_free(g);
	}
}

static void test_fixed_groups_never_split(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 10; seed++) {
		struct opt_graph *g = random_graph(60, seed, 1);
		for (size_t a = 0; a < sizeof(all) / sizeof(all[0]); a++) {
			struct opt_layout l;
			layout_of(g, all[a], 2048, &l);
			check_complete(g, &l);
			/* The three functions of each group follow one another. */
			char *order = order_of(g, &l);
			for (unsigned i = 0; i + 2 < 60; i += 6) {
				char n0[16], n1[16], n2[16];
				snprintf(n0, sizeof(n0), "f%u", i);
				snprintf(n1, sizeof(n1), "f%u", i + 1);
				snprintf(n2, sizeof(n2), "f%u", i + 2);
				int p0 = position(order, n0);
				if (p0 < 0)
					continue;	/* a cold group */
				assert_int_equal(position(order, n1), p0 + 1);
				assert_int_equal(position(order, n2), p0 + 2);
			}
			free(order);
			opt_layout_free(&l);
		}
		opt_graph_free(g);
	}
}

/*
 * A chain a-b (1000 calls), b-c (100), c-d (10), all 100 bytes, and a
 * cache of 200 bytes: the capped algorithms must pair a with b and c with
 * d; without the cap, a and b still sit next to each other.
 */
static void test_heavier_arcs_adjacent_first(void **state)
{
	struct opt_graph *g = opt_graph_new();
	uint32_t d = add(g, "d", 0x1000, 100, 10);
	uint32_t c = add(g, "c", 0x2000, 100, 110);
	uint32_t b = add(g, "b", 0x3000, 100, 1100);
	uint32_t a = add(g, "a", 0x4000, 100, 1);

	(void)state;
	opt_graph_add_calls(g, a, b, 1000);
	opt_graph_add_calls(g, b, c, 100);
	opt_graph_add_calls(g, c, d, 10);
	opt_graph_finish(g);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		struct opt_layout l;
		if (!strcmp(all[i], "executed"))
			continue;
		layout_of(g, all[i], 200, &l);
		char *order = order_of(g, &l);
		int pa = position(order, "a"), pb = position(order, "b");
		assert_int_equal(abs(pa - pb), 1);
		if (strcmp(all[i], "pettis-hansen")) {
			/* Capped: {a, b} is one cluster; c and d are not in it. */
			for (size_t k = 0; k < l.n; k++)
				assert_true(l.clusters[k].size <= 200);
		}
		if (!strcmp(all[i], "cph")) {
			assert_int_equal(l.n, 2);
			assert_int_equal(abs(position(order, "c") - position(order, "d")), 1);
		}
		free(order);
		opt_layout_free(&l);
	}

	/* With room for all four: a chain in call order, the heaviest pair first. */
	struct opt_layout l;
	layout_of(g, "cph", 4096, &l);
	char *order = order_of(g, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(order, "a b c d");
	free(order);
	opt_layout_free(&l);
	opt_graph_free(g);
}

/* A star: x calls y 1000 times and z 10 times; room for two: x with y. */
static void test_heaviest_partner_wins(void **state)
{
	struct opt_graph *g = opt_graph_new();
	uint32_t z = add(g, "z", 0x1000, 64, 10);
	uint32_t x = add(g, "x", 0x2000, 64, 1);
	uint32_t y = add(g, "y", 0x3000, 64, 1000);

	(void)state;
	opt_graph_add_calls(g, x, z, 10);
	opt_graph_add_calls(g, x, y, 1000);
	opt_graph_finish(g);
	for (size_t i = 0; i < sizeof(capped) / sizeof(capped[0]); i++) {
		struct opt_layout l;
		layout_of(g, capped[i], 128, &l);
		char *order = order_of(g, &l);
		assert_int_equal(abs(position(order, "x") - position(order, "y")), 1);
		for (size_t k = 0; k < l.n; k++)
			if (l.clusters[k].n == 2)
				assert_int_equal(g->groups[l.clusters[k].groups[0]].size +
						 g->groups[l.clusters[k].groups[1]].size, 128);
		free(order);
		opt_layout_free(&l);
	}
	opt_graph_free(g);
}

/*
 * dense-chains places a cluster next to the one it exchanges the most
 * calls with, not by density alone: {a b} calls {c d}, which is the least
 * dense; {e f} calls neither, so it comes after, though denser than {c d}.
 * c3 (the paper's) keeps the density order.
 */
static void test_clusters_linked_by_calls(void **state)
{
	struct opt_graph *g = opt_graph_new();
	uint32_t a = add(g, "a", 0x1000, 64, 1000), b = add(g, "b", 0x2000, 64, 1000);
	uint32_t c = add(g, "c", 0x3000, 64, 100), d = add(g, "d", 0x4000, 64, 100);
	uint32_t e = add(g, "e", 0x5000, 64, 500), f = add(g, "f", 0x6000, 64, 500);

	(void)state;
	opt_graph_add_calls(g, a, b, 1000);
	opt_graph_add_calls(g, b, c, 100);
	opt_graph_add_calls(g, c, d, 100);
	opt_graph_add_calls(g, e, f, 500);
	opt_graph_finish(g);
	assert_order(g, "dense-chains", 128, "a b c d e f");
	assert_order(g, "c3", 128, "a b e f c d");
	opt_graph_free(g);
}

/*
 * cache-sort lets a group join any chain it calls or is called by, not
 * only its most frequent caller's: p's chain {p r} fills the cache, so f
 * (called by p 100 times and by q 99 times) goes next to q.  dense-chains
 * only tries p's cluster, and f ends up between {p r} and {t q}.
 */
static void test_cache_sort_second_caller(void **state)
{
	struct opt_graph *g = opt_graph_new();
	uint32_t p = add(g, "p", 0x1000, 200, 1), r = add(g, "r", 0x2000, 56, 2000);
	uint32_t f = add(g, "f", 0x3000, 64, 199);
	uint32_t t = add(g, "t", 0x4000, 64, 1), q = add(g, "q", 0x5000, 64, 500);

	(void)state;
	opt_graph_add_calls(g, p, r, 2000);
	opt_graph_add_calls(g, p, f, 100);
	opt_graph_add_calls(g, q, f, 99);
	opt_graph_add_calls(g, t, q, 500);
	opt_graph_finish(g);
	assert_order(g, "cache-sort", 256, "p r t q f");
	assert_order(g, "dense-chains", 256, "p r f t q");
	opt_graph_free(g);
}

/*
 * A part of the program the training ran rarely stays with its caller.
 * The hot core {c d} (a million calls) calls the interpreter n once and
 * the helper x 50 times; n calls s, x calls y.  No merge into the core
 * gains (the page model: a cold chain spreads the core's heat over more
 * pages), so the gains leave three chains, and {x y}, which exchanges
 * more calls with the core, would be linked next to it.  Then each chain
 * left is appended to the chain that calls it the most where the two fit:
 * {x y} does not fit beside the core, {n s} does, however few its calls.
 */
/* Adds the program above to G; returns c. */
static uint32_t add_rare_part(struct opt_graph *g)
{
	uint32_t c = add(g, "c", 0x1000, 1000, 1), d = add(g, "d", 0x2000, 1000, 1000000);
	uint32_t x = add(g, "x", 0x3000, 2000, 50), y = add(g, "y", 0x4000, 500, 1000);
	uint32_t n = add(g, "n", 0x5000, 1500, 1), s = add(g, "s", 0x6000, 100, 1000);

	opt_graph_add_calls(g, c, d, 1000000);
	opt_graph_add_calls(g, c, x, 50);
	opt_graph_add_calls(g, x, y, 1000);
	opt_graph_add_calls(g, c, n, 1);
	opt_graph_add_calls(g, n, s, 1000);
	return c;
}

static void test_cache_sort_keeps_rare_part(void **state)
{
	struct opt_graph *g = opt_graph_new();

	(void)state;
	add_rare_part(g);
	opt_graph_finish(g);
	assert_order(g, "cache-sort", 4096, "c d n s x y");
	assert_order(g, "cache-sort-callers", 4096, "c d n s x y");
	opt_graph_free(g);
}

/*
 * The same program with a hot function larger than the cache, big (the
 * core calls it 10 times): cache-sort leaves the chains as the gains made
 * them, so {x y} is linked next to the core and {n s} stays apart;
 * cache-sort-callers still joins {n s} to the core.
 */
static void test_cache_sort_no_joins_beside_larger_than_cache(void **state)
{
	struct opt_graph *g = opt_graph_new();

	(void)state;
	uint32_t c = add_rare_part(g), big = add(g, "big", 0x7000, 5000, 10);
	opt_graph_add_calls(g, c, big, 10);
	opt_graph_finish(g);
	assert_order(g, "cache-sort", 4096, "c d x y n s big");
	assert_order(g, "cache-sort-callers", 4096, "c d n s x y big");
	opt_graph_free(g);
}

/*
 * Pettis-Hansen joins chains so the heaviest edge between them is
 * shortest: a-b (100 calls) and c-d (90) form two chains first; the only
 * call between them is a-d, so both chains turn round: b a d c.
 */
static void test_pettis_hansen_orients_chains(void **state)
{
	struct opt_graph *g = opt_graph_new();
	uint32_t a = add(g, "a", 0x1000, 100, 110);
	uint32_t b = add(g, "b", 0x2000, 100, 100);
	uint32_t c = add(g, "c", 0x3000, 100, 90);
	uint32_t d = add(g, "d", 0x4000, 100, 100);
	struct opt_layout l;

	(void)state;
	opt_graph_add_calls(g, a, b, 100);
	opt_graph_add_calls(g, c, d, 90);
	opt_graph_add_calls(g, d, a, 10);
	opt_graph_finish(g);
	layout_of(g, "pettis-hansen", 0, &l);
	char *order = order_of(g, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(order, "b a d c");
	free(order);
	opt_layout_free(&l);
	opt_graph_free(g);
}

/* The same program given twice in a different order: the same layout. */
static struct opt_graph *shuffled_graph(int reverse)
{
	struct opt_graph *g = opt_graph_new();
	uint32_t id[40];

	for (int k = 0; k < 40; k++) {
		int i = reverse ? 39 - k : k;
		char name[16];
		snprintf(name, sizeof(name), "g%02d", i);
		/* Equal sizes and calls everywhere: only tie-breaks decide. */
		id[i] = add(g, name, 0x1000 + 0x100 * (uint64_t)i, 96, 50);
	}
	for (int k = 0; k < 40; k++) {
		int i = reverse ? 39 - k : k;
		opt_graph_add_calls(g, id[i], id[(i * 7 + 3) % 40], 5);
		opt_graph_add_calls(g, id[i], id[(i + 1) % 40], 5);
	}
	opt_graph_finish(g);
	return g;
}

static void test_deterministic(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		struct opt_graph *g1 = shuffled_graph(0), *g2 = shuffled_graph(1), *g3 = shuffled_graph(0);
		struct opt_layout l1, l2, l3;
		layout_of(g1, all[i], 1024, &l1);
		layout_of(g2, all[i], 1024, &l2);
		layout_of(g3, all[i], 1024, &l3);
		char *o1 = order_of(g1, &l1), *o2 = order_of(g2, &l2), *o3 = order_of(g3, &l3);
		assert_string_equal(o1, o3);
		assert_string_equal(o1, o2);
		free(o1);
		free(o2);
		free(o3);
		opt_layout_free(&l1);
		opt_layout_free(&l2);
		opt_layout_free(&l3);
		opt_graph_free(g1);
		opt_graph_free(g2);
		opt_graph_free(g3);
	}
}

static void test_warnings(void **state)
{
	struct opt_graph *g = opt_graph_new();
	struct opt_params p = { 1000 };
	struct opt_warnings w;

	(void)state;
	add(g, "huge", 0x1000, 5000, 7);		/* hot and larger than the cache */
	add(g, "nosize", 0x3000, 0, 3);			/* hot, no size */
	add(g, "never", 0x4000, 40, 0);			/* not called */
	uint32_t s = opt_graph_add_func(g, "gone", "/bin/prog", 0, 10, OPT_STALE);
	g->funcs[s].calls = 9;
	uint32_t l = opt_graph_add_func(g, "memcpy", "/lib/libc.so.6", 0x10, 10, OPT_SHARED);
	g->funcs[l].calls = 11;
	uint32_t m1 = add(g, "m1", 0x5000, 700, 2), m2 = add(g, "m2", 0x5300, 700, 0);
	uint32_t gr = opt_graph_add_group(g, ".text", "big.o", 0x5000, 1400);
	opt_graph_assign(g, m1, gr);
	opt_graph_assign(g, m2, gr);
	opt_graph_finish(g);
	opt_warnings_collect(g, &p, &w);
	assert_int_equal(w.count[OPT_W_FUNC_TOO_BIG], 1);
	assert_int_equal(w.count[OPT_W_NO_SIZE], 1);
	assert_int_equal(w.count[OPT_W_UNCALLED], 1);	/* m2 moves with hot m1 */
	assert_int_equal(w.count[OPT_W_STALE], 1);
	assert_int_equal(w.count[OPT_W_SHARED], 1);
	assert_int_equal(w.count[OPT_W_GROUP_TOO_BIG], 1);
	for (size_t i = 0; i < w.n; i++) {
		char buf[128];
		const char *who = opt_warning_subject(g, &w.list[i], buf, sizeof(buf));
		switch (w.list[i].kind) {
		case OPT_W_FUNC_TOO_BIG: assert_string_equal(who, "huge"); assert_int_equal(w.list[i].calls, 7); break;
		case OPT_W_STALE: assert_string_equal(who, "gone"); assert_int_equal(w.list[i].calls, 9); break;
		case OPT_W_SHARED: assert_string_equal(who, "memcpy"); assert_int_equal(w.list[i].calls, 11); break;
		case OPT_W_UNCALLED: assert_string_equal(who, "never"); break;
		case OPT_W_GROUP_TOO_BIG: assert_string_equal(who, ".text (big.o)"); break;
		default: break;
		}
	}
	opt_warnings_release(&w);
	opt_graph_free(g);
}

/* Excerpts of real maps of one link: m1.o built with -ffunction-sections,
 * m2.o without, inside libm2.a. */
static const char gnu_map[] =
	"Archive member included to satisfy reference by file (symbol)\n\n"
	"libm2.a(m2.o)                 m1.o (g2)\n\n"
	"Discarded input sections\n\n"
	" .text          0x0000000000000000        0x0 m1.o\n\n"
	"Linker script and memory map\n\n"
	".text           0x0000000000001050      0x178\n"
	" *(.text.unlikely .text.*_unlikely .text.unlikely.*)\n"
	" .text.unlikely.coldf\n"
	"                0x0000000000001050        0x6 m1.o\n"
	"                0x0000000000001050                coldf\n"
	" .text.unlikely.f\n"
	"                0x0000000000001056        0x6 m1.o\n"
	" *fill*         0x000000000000105c        0x4 \n"
	" .text.startup.main\n"
	"                0x0000000000001060       0x2f m1.o\n"
	"                0x0000000000001060                main\n"
	" *(.text .stub .text.* .gnu.linkonce.t.*)\n"
	" .text.sfun     0x0000000000001170        0x4 m1.o\n"
	" .text.a_very_long_function_name_here\n"
	"                0x0000000000001180        0x4 m1.o\n"
	"                0x0000000000001180                a_very_long_function_name_here\n"
	" .text.f        0x0000000000001190       0x10 m1.o\n"
	"                0x0000000000001190                f\n"
	" .text          0x00000000000011b0       0x18 libm2.a(m2.o)\n"
	"                0x00000000000011b0                g1\n"
	"                0x00000000000011c0                g2\n"
	"                0x00000000000011c8                PROVIDE (__etext = .)\n"
	"\n.fini           0x00000000000011c8        0x9\n"
	" .fini          0x00000000000011c8        0x4 crti.o\n";

static const char lld_map[] =
	"             VMA              LMA     Size Align Out     In      Symbol\n"
	"             2a8              2a8       1c     1 .interp\n"
	"             2a8              2a8       1c     1         <internal>:(.interp)\n"
	"            1710             1710      168    16 .text\n"
	"            1800             1800        4    16         m1.o:(.text.sfun)\n"
	"            1800             1800        4     1                 sfun\n"
	"            181a             181a        6     1         m1.o:(.text.unlikely.f)\n"
	"            181a             181a        6     1                 f.cold\n"
	"            1820             1820       10    16         m1.o:(.text.f)\n"
	"            1820             1820       10     1                 f\n"
	"            1860             1860       18    16         libm2.a(m2.o):(.text)\n"
	"            1860             1860        4     1                 g1\n"
	"            1870             1870        8     1                 g2\n"
	"            1878             1878       17     4 .init\n"
	"            1878             1878       12     4         crti.o:(.init)\n";

static void test_map_gnu(void **state)
{
	struct link_map m;
	char err[128];
	const struct link_section *s;

	(void)state;
	assert_int_equal(link_map_parse(gnu_map, strlen(gnu_map), &m, err, sizeof(err)), 0);
	assert_int_equal(m.kind, LINK_MAP_GNU);
	/* f.cold at 0x1056 lives in .text.unlikely.f, a wrapped name. */
	s = link_map_find(&m, 0x1058);
	assert_non_null(s);
	assert_string_equal(s->name, ".text.unlikely.f");
	assert_string_equal(s->file, "m1.o");
	s = link_map_find(&m, 0x1060);
	assert_string_equal(s->name, ".text.startup.main");
	s = link_map_find(&m, 0x11c0);
	assert_string_equal(s->name, ".text");
	assert_string_equal(s->file, "libm2.a(m2.o)");
	assert_null(link_map_find(&m, 0x105d));		/* fill */
	assert_null(link_map_find(&m, 0x11c8));		/* .fini is not code we move */
	assert_null(link_map_find(&m, 0));		/* discarded sections are not kept */
	/* Symbols: names only, no assignments. */
	int g2 = 0;
	for (size_t i = 0; i < m.nsymbols; i++) {
		assert_null(strchr(m.symbols[i].name, '('));
		g2 |= !strcmp(m.symbols[i].name, "g2") && m.symbols[i].addr == 0x11c0;
	}
	assert_true(g2);
	link_map_release(&m);
}

static void test_map_lld(void **state)
{
	struct link_map m;
	char err[128];
	const struct link_section *s;

	(void)state;
	assert_int_equal(link_map_parse(lld_map, strlen(lld_map), &m, err, sizeof(err)), 0);
	assert_int_equal(m.kind, LINK_MAP_LLD);
	s = link_map_find(&m, 0x181a);
	assert_non_null(s);
	assert_string_equal(s->name, ".text.unlikely.f");
	s = link_map_find(&m, 0x1870);
	assert_string_equal(s->name, ".text");
	assert_string_equal(s->file, "libm2.a(m2.o)");
	assert_null(link_map_find(&m, 0x1880));		/* .init */
	assert_null(link_map_find(&m, 0x2a8));		/* .interp */
	assert_int_equal(m.nsymbols, 5);
	link_map_release(&m);
}

static void test_map_rejects_junk(void **state)
{
	struct link_map m;
	char err[128];
	static const char *const junk[] = {
		"", "hello\nworld\n", ".text 0x10 0x10\n", "\n\n\n",
		"             VMA              LMA     Size Align Out     In      Symbol\n",
		".text           0x0 0x10\n .text.f 0xzz 0x10 a.o\n .text.g 0x10\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		assert_int_equal(link_map_parse(junk[i], strlen(junk[i]), &m, err, sizeof(err)), -1);
		assert_true(strlen(err) > 0);
		link_map_release(&m);
	}
}

static struct elf_funcs fake_binary(void)
{
	static const struct { const char *name; uint64_t addr, size; } f[] = {
		{ "sfun", 0x1800, 4 }, { "f.cold", 0x181a, 6 }, { "f", 0x1820, 16 },
		{ "g1", 0x1860, 4 }, { "g2", 0x1870, 8 },
	};
	struct elf_funcs t;

	memset(&t, 0, sizeof(t));
	t.funcs = xcalloc(5, sizeof(*t.funcs));
	for (size_t i = 0; i < 5; i++) {
		t.funcs[i].name = xstrdup(f[i].name);
		t.funcs[i].addr = f[i].addr;
		t.funcs[i].size = f[i].size;
		t.funcs[i].in_text = 1;
	}
	t.n = 5;
	return t;
}

static void test_map_check(void **state)
{
	struct link_map m;
	char err[128];
	struct elf_funcs t = fake_binary();

	(void)state;
	assert_int_equal(link_map_parse(lld_map, strlen(lld_map), &m, err, sizeof(err)), 0);
	assert_int_equal(link_map_check(&m, &t, "a.map", "prog"), 0);
	t.funcs[2].addr = 0x1830;	/* f moved: the map is of another link */
	assert_int_equal(link_map_check(&m, &t, "a.map", "prog"), -1);
	link_map_release(&m);
	elf_funcs_release(&t);
}

static const char cg_text[] =
	"desc: I1 cache:         8192 B, 32 B, 2-way associative\n"
	"cmd: ./prog 20\n"
	"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw \n"
	"fl=a.c\n"
	"fn=f\n"
	"3 100 2 1 0 0 0 0 0 0\n"
	"4 50\n"
	"fn=g@@GLIBC_2.2.5\n"
	"7 30 1\n"
	"fl=b.h\n"
	"fn=f\n"
	"9 20 0 0\n"
	"summary: 200 3 1 0 0 0 0 0 0\n";

static void test_cachegrind(void **state)
{
	struct cg_result r;
	char err[128];

	(void)state;
	assert_int_equal(cg_parse(cg_text, strlen(cg_text), &r, err, sizeof(err)), 0);
	assert_int_equal(r.ir, 200);
	assert_int_equal(r.i1_misses, 3);
	assert_true(r.has_i1);
	assert_int_equal(r.nfuncs, 2);
	assert_string_equal(r.funcs[0].name, "f");
	assert_int_equal(r.funcs[0].ir, 170);	/* two blocks, two files */
	assert_string_equal(r.funcs[1].name, "g");
	assert_int_equal(r.funcs[1].ir, 30);
	cg_release(&r);

	static const char *const junk[] = {
		"", "summary: 1 2\n", "fn=f\n3 4\nsummary: 1\n",
		"events: Dr\nsummary: 5\n", "events: Ir I1mr\nfn=f\n1 99999999999999999999999\n",
	};
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		int rc = cg_parse(junk[i], strlen(junk[i]), &r, err, sizeof(err));
		assert_int_equal(rc, -1);
		cg_release(&r);
	}
}

static void test_pages(void **state)
{
	struct elf_funcs t;
	struct cg_result r;
	struct page_count pc;

	(void)state;
	/* hot (4 KiB) on page 0, warm across pages 1-2, cold on page 3. */
	memset(&t, 0, sizeof(t));
	t.funcs = xcalloc(3, sizeof(*t.funcs));
	t.funcs[0] = (struct elf_func){ xstrdup("hot"), 0x10000, 4096, 0, 1 };
	t.funcs[1] = (struct elf_func){ xstrdup("warm"), 0x11800, 4096, 0, 1 };
	t.funcs[2] = (struct elf_func){ xstrdup("cold"), 0x13000, 100, 0, 1 };
	t.n = 3;
	memset(&r, 0, sizeof(r));
	r.funcs = xcalloc(4, sizeof(*r.funcs));
	r.funcs[0] = (struct cg_func){ xstrdup("cold"), 10 };
	r.funcs[1] = (struct cg_func){ xstrdup("hot"), 900 };
	r.funcs[2] = (struct cg_func){ xstrdup("libc_thing"), 5000 };	/* not in the binary */
	r.funcs[3] = (struct cg_func){ xstrdup("warm"), 90 };
	r.nfuncs = 4;
	pages_count(&t, &r, 0.85, &pc);
	assert_int_equal(pc.ir, 1000);
	assert_int_equal(pc.pages, 1);		/* 900 of 1000 in one page */
	assert_int_equal(pc.touched, 4);
	pages_count(&t, &r, 0.94, &pc);
	assert_int_equal(pc.pages, 2);		/* and half of warm */
	assert_int_equal(pages_hottest(&t, &r), 0);
	elf_funcs_release(&t);
	cg_release(&r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = xcalloc(1 << 16, 1);
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_writers(void **state)
{
	struct opt_graph *g = opt_graph_new();
	char dir[] = "/tmp/test_optimize.XXXXXX";
	struct opt_layout l;
	struct opt_warnings w;
	struct opt_params p = { 32768 };
	struct opt_write_stats ws;

	(void)state;
	assert_non_null(mkdtemp(dir));
	uint32_t f = add(g, "f", 0x1820, 16, 100), fc = add(g, "f.cold", 0x181a, 6, 0);
	uint32_t m = add(g, "main", 0x1060, 47, 1);
	uint32_t g1 = add(g, "g1", 0x1860, 4, 50), g2 = add(g, "g2", 0x1870, 8, 0);
	opt_graph_assign(g, f, opt_graph_add_group(g, ".text.f", "m1.o", 0x1820, 16));
	opt_graph_assign(g, fc, opt_graph_add_group(g, ".text.unlikely.f", "m1.o", 0x181a, 6));
	opt_graph_assign(g, m, opt_graph_add_group(g, ".text.startup.main", "m1.o", 0x1060, 47));
	uint32_t lib = opt_graph_add_group(g, ".text", "libm2.a(m2.o)", 0x1860, 24);
	opt_graph_assign(g, g1, lib);
	opt_graph_assign(g, g2, lib);
	/* Another file's .text: the name alone no longer picks libm2.a's. */
	uint32_t o = add(g, "other", 0x1900, 8, 0);
	opt_graph_assign(g, o, opt_graph_add_group(g, ".text", "crtbeginS.o", 0x1900, 8));
	opt_graph_add_calls(g, m, f, 100);
	opt_graph_add_calls(g, f, g1, 50);
	opt_graph_finish(g);
	layout_of(g, "cph", p.cache_size, &l);
	opt_warnings_collect(g, &p, &w);

	struct opt_output_info info = { "prog", "x.data", "cph", "test", "the map", 32768, "calls" };
	char *lor = xasprintf("%s/p.lor", dir), *ord = xasprintf("%s/p.order", dir);
	char *cg = xasprintf("%s/p.cg", dir), *gold = xasprintf("%s/p.gold", dir);
	char *ld = xasprintf("%s/p.ld", dir);
	assert_int_equal(opt_write_lor(lor, g, &l, &w, &info), 0);
	assert_int_equal(opt_write_symbol_order(ord, g, &l), 0);
	assert_int_equal(opt_write_call_graph(cg, g), 0);
	assert_int_equal(opt_write_gold_order(gold, g, &l, &ws), 0);
	assert_int_equal(opt_write_ld_script(ld, g, &l, &info), 0);

	char *s = slurp(ord);
	assert_string_equal(s, "main\nf\ng1\ng2\n");
	free(s);
	s = slurp(cg);
	assert_string_equal(s, "main f 100\nf g1 50\n");
	free(s);
	s = slurp(gold);
	assert_string_equal(s, ".text.unlikely.callscope_pad\n.text.startup.main\n.text.f\n");
	assert_int_equal(ws.gold_unnamed, 1);
	free(s);
	s = slurp(ld);
	assert_non_null(strstr(s, "    *(.text.unlikely.callscope_pad)\n    /* clique 1: 87 bytes, 151 calls */\n"
				  "    *(.text.startup.main)\n    *(.text.f)\n    libm2.a:m2.[o](.text)\n"));
	assert_non_null(strstr(s, "INSERT BEFORE .text;"));
	assert_null(strstr(s, ".text.main"));
	free(s);
	s = slurp(lor);
	assert_non_null(strstr(s, "clique 1: 87 bytes, 151 calls"));
	assert_non_null(strstr(s, "[fixed group]"));
	assert_non_null(strstr(s, "not called: 2"));
	assert_non_null(strstr(s, "f.cold"));
	free(s);

	/* Written under a temporary name: nothing else is left in the directory. */
	char *cmd = xasprintf("test $(ls %s | wc -l) -eq 5", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(lor);
	free(ord);
	free(cg);
	free(gold);
	free(ld);
	opt_warnings_release(&w);
	opt_layout_free(&l);
	opt_graph_free(g);
}

/* The sign test over offsets: exact p-values, ties left out, both ways. */
static void test_paired(void **state)
{
	(void)state;
	struct paired p;
	/* Fewer at all 8 offsets: p = 2 / 2^8. */
	double before[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };
	double all_fewer[8] = { 9, 19, 29, 39, 49, 59, 69, 79 };
	paired_compare(all_fewer, before, 8, &p);
	assert_int_equal(p.fewer, 8);
	assert_int_equal(p.more, 0);
	assert_true(p.p > 0.0078 && p.p < 0.0079);
	assert_int_equal(paired_verdict(&p), 1);
	/* And the other way round: worse. */
	paired_compare(before, all_fewer, 8, &p);
	assert_int_equal(p.more, 8);
	assert_int_equal(paired_verdict(&p), -1);
	/* 7 of 8: p = 2 * 9 / 256 = 0.0703, not called. */
	double seven[8] = { 9, 19, 29, 39, 49, 59, 69, 81 };
	paired_compare(seven, before, 8, &p);
	assert_int_equal(p.fewer, 7);
	assert_int_equal(p.more, 1);
	assert_true(p.p > 0.070 && p.p < 0.071);
	assert_int_equal(paired_verdict(&p), 0);
	/* Ties are left out: 6 fewer and 2 the same is a test over 6. */
	double tied[8] = { 9, 19, 29, 39, 49, 59, 70, 80 };
	paired_compare(tied, before, 8, &p);
	assert_int_equal(p.same, 2);
	assert_true(p.p > 0.031 && p.p < 0.032);
	assert_int_equal(paired_verdict(&p), 1);
	/* Nothing differs: p = 1, no call. */
	paired_compare(before, before, 8, &p);
	assert_true(p.p == 1.0);
	assert_int_equal(paired_verdict(&p), 0);
	/* Four offsets can never call a difference: 2 / 16 > 0.05. */
	paired_compare(all_fewer, before, 4, &p);
	assert_true(p.p > 0.12);
	assert_int_equal(paired_verdict(&p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_size_respected),
		cmocka_unit_test(test_fixed_groups_never_split),
		cmocka_unit_test(test_heavier_arcs_adjacent_first),
		cmocka_unit_test(test_heaviest_partner_wins),
		cmocka_unit_test(test_pettis_hansen_orients_chains),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_map_gnu),
		cmocka_unit_test(test_map_lld),
		cmocka_unit_test(test_map_rejects_junk),
		cmocka_unit_test(test_map_check),
		cmocka_unit_test(test_cachegrind),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_writers),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_clusters_linked_by_calls),
		cmocka_unit_test(test_cache_sort_second_caller),
		cmocka_unit_test(test_cache_sort_large),
		cmocka_unit_test(test_cache_sort_keeps_rare_part),
		cmocka_unit_test(test_cache_sort_no_joins_beside_larger_than_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
