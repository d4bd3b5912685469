/*
 * The calling-context tree on hand-built event sequences: one node per
 * path, recursion as nested nodes, open frames, virtual returns, the sums
 * that must hold exactly (self over the tree = the root's total; a node's
 * total = self + its children's), agreement with the flat profile built
 * from the same events, re-rooting with cct_focus(), and symspecs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/cct.h"
#include "model/profile.h"
#include "model/symspec.h"

/* Both models fed the same events, as cli/cmd_tree.c does. */
struct both {
	struct profile *p;
	struct cct *t;
	struct thread_builder *pb;
	struct cct_builder *tb;
};

/* A thread whose hooks cost INNER + OUTER ns a call, measured in place
 * when IN_PLACE (short calls summed below 0: model/hook_cost.h). */
static void begin_measured(struct both *b, double inner, double outer, int in_place)
{
	struct thread_info info = { .pid = 1, .tid = 1, .start_ns = 0, .hooks_in_place = in_place };
	if (!b->p) {
		b->p = profile_new();
		b->t = cct_new(FUNC_NONE);
	}
	b->pb = profile_thread_begin(b->p, &info, inner, outer);
	b->tb = cct_thread_begin(b->t, 0, inner, outer);
	if (in_place)
		cct_sum_short_calls(b->tb);
}

static void begin(struct both *b, double inner, double outer)
{
	begin_measured(b, inner, outer, 0);
}

static void enter(struct both *b, uint32_t fn, uint64_t t)
{
	profile_enter(b->pb, fn, t);
	cct_enter(b->tb, fn, t);
}

static void open_frame(struct both *b, uint32_t fn, uint64_t t)
{
	profile_open_frame(b->pb, fn, t);
	cct_open_frame(b->tb, fn, t);
}

static void leave(struct both *b, uint64_t t)
{
	profile_exit(b->pb, t, EXIT_RETURN);
	cct_exit(b->tb, t, EXIT_RETURN);
}

static void leave_unwound(struct both *b, uint64_t t)
{
	profile_exit(b->pb, t, EXIT_UNWOUND);
	cct_exit(b->tb, t, EXIT_UNWOUND);
}

static void end(struct both *b, uint64_t t)
{
	profile_thread_end(b->pb, t);
	cct_thread_end(b->tb, t);
}

static void release(struct both *b)
{
	cct_free(b->t);
	profile_free(b->p);
}

static uint32_t fn(struct both *b, const char *name)
{
	if (!b->p) {
		b->p = profile_new();
		b->t = cct_new(FUNC_NONE);
	}
	return profile_intern_func(b->p, name, "/usr/bin/prog", 0, 0, NULL, 0);
}

/* The node reached from the root through the NULL-terminated functions. */
static const struct cct_node *path(const struct cct *t, const uint32_t *funcs, size_t n)
{
	uint32_t at = CCT_ROOT;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = t->nodes[at].first_child;
		while (c != CCT_NONE && t->nodes[c].func != funcs[i])
			c = t->nodes[c].next_sibling;
		if (c == CCT_NONE)
			return NULL;
		at = c;
	}
	return &t->nodes[at];
}

#define PATH(t, ...) \
	path((t), (const uint32_t[]){ __VA_ARGS__ }, \
	     sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))

/* Every node's total is its self plus its children's totals, and the
 * self values of the whole tree add up to the root's total. */
static void assert_sums(const struct cct *t)
{
	uint64_t all_self = 0;

	for (size_t i = 0; i < t->nnodes; i++) {
		const struct cct_node *n = &t->nodes[i];
		uint64_t kids = 0;
		for (uint32_t c = n->first_child; c != CCT_NONE; c = t->nodes[c].next_sibling) {
			kids += t->nodes[c].total[CCT_TIME];
			assert_int_equal(t->nodes[c].parent, i);
			assert_int_equal(t->nodes[c].depth, n->depth + 1);
			assert_true(c > i);
		}
		if (i == CCT_ROOT && n->func == FUNC_NONE)
			assert_int_equal(n->self[CCT_TIME], 0);
		assert_int_equal(n->total[CCT_TIME], n->self[CCT_TIME] + kids);
		all_self += n->self[CCT_TIME];
	}
	assert_int_equal(all_self, t->nodes[CCT_ROOT].total[CCT_TIME]);
}

/* The nodes of F add up to F's numbers in the flat profile. */
static void assert_matches_profile(const struct cct *t, const struct profile *p)
{
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint64_t self = 0, calls = 0, outer_total = 0;
		for (size_t i = 1; i < t->nnodes; i++) {
			const struct cct_node *n = &t->nodes[i];
			if (n->func != f)
				continue;
			self += n->self[CCT_TIME];
			calls += n->calls;
			int nested = 0;
			for (uint32_t a = n->parent; a != CCT_NONE; a = t->nodes[a].parent)
				nested |= t->nodes[a].func == f;
			if (!nested)
				outer_total += n->total[CCT_TIME];
		}
		assert_int_equal(self, p->funcs[f].self_ns);
		assert_int_equal(calls, p->funcs[f].calls);
		assert_int_equal(outer_total, p->funcs[f].total_ns);
	}
	assert_int_equal(t->calls, p->calls);
}

/* main -> a -> c, main -> b -> c: c has two nodes, one per path. */
static void test_paths(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t m = fn(&b, "main"), a = fn(&b, "a"), bb = fn(&b, "b"), c = fn(&b, "c");

	begin(&b, 0, 0);
	enter(&b, m, 0);
	for (int i = 0; i < 3; i++) {
		uint64_t t0 = 10 + (uint64_t)i * 100;
		enter(&b, a, t0);
		enter(&b, c, t0 + 10);
		leave(&b, t0 + 30);
		enter(&b, c, t0 + 40);
		leave(&b, t0 + 45);
		leave(&b, t0 + 50);
	}
	enter(&b, bb, 400);
	enter(&b, c, 410);
	leave(&b, 490);
	leave(&b, 500);
	leave(&b, 520);
	end(&b, 520);

	assert_int_equal(PATH(b.t, m)->calls, 1);
	assert_int_equal(PATH(b.t, m, a)->calls, 3);
	assert_int_equal(PATH(b.t, m, a, c)->calls, 6);
	assert_int_equal(PATH(b.t, m, a, c)->self[CCT_TIME], 3 * 25);
	assert_int_equal(PATH(b.t, m, a)->self[CCT_TIME], 3 * 25);
	assert_int_equal(PATH(b.t, m, a)->total[CCT_TIME], 3 * 50);
	assert_int_equal(PATH(b.t, m, bb, c)->calls, 1);
	assert_int_equal(PATH(b.t, m, bb, c)->total[CCT_TIME], 80);
	assert_null(PATH(b.t, m, c));
	assert_int_equal(b.t->nnodes, 1 + 5);
	assert_int_equal(b.t->nodes[CCT_ROOT].total[CCT_TIME], 520);
	assert_int_equal(b.t->nodes[CCT_ROOT].calls, 0);
	assert_int_equal(b.t->calls, 1 + 3 + 6 + 1 + 1);
	assert_sums(b.t);
	assert_matches_profile(b.t, b.p);
	release(&b);
}

/* fact(3) -> fact(2) -> fact(1): three nested nodes, each once; the
 * total of the outer node holds the nested ones once. */
static void test_recursion_nests(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t m = fn(&b, "main"), f = fn(&b, "fact"), g = fn(&b, "g");

	begin(&b, 0, 0);
	enter(&b, m, 0);
	enter(&b, f, 10);
	enter(&b, f, 20);
	enter(&b, f, 30);
	enter(&b, g, 32);
	leave(&b, 38);
	leave(&b, 40);
	leave(&b, 50);
	leave(&b, 60);
	enter(&b, f, 70);	/* a second outermost call, 5 ns */
	leave(&b, 75);
	leave(&b, 80);
	end(&b, 80);

	const struct cct_node *f1 = PATH(b.t, m, f), *f2 = PATH(b.t, m, f, f),
			      *f3 = PATH(b.t, m, f, f, f);
	assert_non_null(f3);
	assert_null(PATH(b.t, m, f, f, f, f));
	assert_int_equal(f1->calls, 2);
	assert_int_equal(f2->calls, 1);
	assert_int_equal(f3->calls, 1);
	assert_int_equal(f1->total[CCT_TIME], 50 + 5);
	assert_int_equal(f2->total[CCT_TIME], 30);
	assert_int_equal(f3->total[CCT_TIME], 10);
	assert_int_equal(f3->self[CCT_TIME], 4);
	assert_int_equal(PATH(b.t, m, f, f, f, g)->total[CCT_TIME], 6);
	/* the outer node's total is below the thread's wall time */
	assert_true(f1->total[CCT_TIME] <= 80);
	assert_sums(b.t);
	assert_matches_profile(b.t, b.p);
	release(&b);
}

/* A forked child's stream starts inside main -> spawn: the open frames
 * make nodes with time but no calls; a virtual return is marked. */
static void test_open_frames_and_virtual_returns(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t m = fn(&b, "main"), s = fn(&b, "spawn"), c = fn(&b, "child_work");

	begin(&b, 0, 0);
	open_frame(&b, m, 100);
	open_frame(&b, s, 100);
	enter(&b, c, 110);
	leave(&b, 130);
	enter(&b, c, 135);
	end(&b, 150);

	assert_int_equal(PATH(b.t, m)->calls, 0);
	assert_int_equal(PATH(b.t, m, s)->calls, 0);
	assert_int_equal(PATH(b.t, m, s)->self[CCT_TIME], 50 - 20 - 15);
	assert_int_equal(PATH(b.t, m, s, c)->calls, 2);
	assert_int_equal(PATH(b.t, m, s, c)->virtual_returns, 1);
	assert_int_equal(PATH(b.t, m)->virtual_returns, 1);
	assert_int_equal(b.t->nodes[CCT_ROOT].total[CCT_TIME], 50);
	assert_sums(b.t);
	assert_matches_profile(b.t, b.p);
	release(&b);
}

/* A longjmp closes b and c as unwound; d is then a child of a. */
static void test_unwound(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t a = fn(&b, "a"), bb = fn(&b, "b"), c = fn(&b, "c"), d = fn(&b, "d");

	begin(&b, 0, 0);
	enter(&b, a, 0);
	enter(&b, bb, 10);
	enter(&b, c, 20);
	leave_unwound(&b, 40);
	leave_unwound(&b, 40);
	assert_int_equal(cct_builder_depth(b.tb), 1);
	enter(&b, d, 50);
	leave(&b, 60);
	leave(&b, 100);
	end(&b, 100);

	assert_int_equal(PATH(b.t, a, bb)->unwound, 1);
	assert_int_equal(PATH(b.t, a, bb, c)->unwound, 1);
	assert_non_null(PATH(b.t, a, d));
	assert_null(PATH(b.t, a, bb, c, d));
	assert_sums(b.t);
	assert_matches_profile(b.t, b.p);
	release(&b);
}

/* Threads merge under one root: main's thread and a worker's. */
static void test_threads_merge(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t m = fn(&b, "main"), w = fn(&b, "worker"), x = fn(&b, "work");

	for (int th = 0; th < 3; th++) {
		begin(&b, 0, 0);
		enter(&b, th ? w : m, 0);
		enter(&b, x, 5);
		leave(&b, 15);
		leave(&b, 20);
		end(&b, 20);
	}
	assert_int_equal(PATH(b.t, w, x)->calls, 2);
	assert_int_equal(PATH(b.t, m, x)->calls, 1);
	assert_int_equal(b.t->nodes[CCT_ROOT].total[CCT_TIME], 60);
	assert_sums(b.t);
	assert_matches_profile(b.t, b.p);
	release(&b);
}

/* The hooks' cost is subtracted as the profile subtracts it (see
 * test_profile.c's test_overhead_subtracted), node by node. */
static void test_overhead_subtracted(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t m = fn(&b, "main"), l = fn(&b, "leaf"), k = fn(&b, "mid");
	uint64_t t = 0;

	begin(&b, 2.25, 3.5);
	enter(&b, m, t);
	for (int i = 0; i < 10; i++) {
		t += 3;
		enter(&b, k, t);
		t += 7;
		enter(&b, l, t);
		t += 2 + (uint64_t)(i % 3);
		leave(&b, t);
		t += 4;
		leave(&b, t);
	}
	t += 50;
	leave(&b, t);
	end(&b, t);

	assert_int_equal(PATH(b.t, m)->total[CCT_TIME], b.p->funcs[m].total_ns);
	assert_true(PATH(b.t, m)->total[CCT_TIME] < t);
	assert_sums(b.t);
	assert_matches_profile(b.t, b.p);
	release(&b);
}

/*
 * With the hooks' cost measured in place, paths whose calls are shorter
 * than it end below 0: the
 * leaf's short calls under `a` are made up from its longer ones under
 * `b`, `tiny` has no longer calls and comes to 0, and the tree still
 * adds up and has the flat profile's self times function by function.
 */
static void test_paths_below_zero(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t m = fn(&b, "main"), a = fn(&b, "a"), c = fn(&b, "b"), l = fn(&b, "leaf"),
		 y = fn(&b, "tiny");
	uint64_t t = 0;

	begin_measured(&b, 10, 5, 1);
	enter(&b, m, t);
	for (int i = 0; i < 6; i++) {
		uint32_t parent = i % 2 ? c : a;
		t += 40;
		enter(&b, parent, t);
		t += 20;
		enter(&b, l, t);
		t += parent == a ? 4 : 30;
		leave(&b, t);
		t += 20;
		enter(&b, y, t);
		t += 3;
		leave(&b, t);
		t += 20;
		leave(&b, t);
	}
	t += 50;
	leave(&b, t);
	end(&b, t);

	assert_int_equal(b.p->funcs[l].self_ns, 3 * (4 - 10) + 3 * (30 - 10));
	assert_int_equal(b.p->funcs[y].self_ns, 0);
	assert_sums(b.t);
	/* function by function the self times agree; the totals of the
	 * paths above the raised ones grew by what those were raised */
	for (uint32_t f = 0; f < b.p->nfuncs; f++) {
		uint64_t self = 0;
		for (size_t i = 1; i < b.t->nnodes; i++)
			if (b.t->nodes[i].func == f) {
				self += b.t->nodes[i].self[CCT_TIME];
				assert_true((int64_t)b.t->nodes[i].self[CCT_TIME] >= 0);
			}
		assert_int_equal(self, b.p->funcs[f].self_ns);
	}
	release(&b);
}

/* Counters follow the same arithmetic as time, in their own columns;
 * a tree without them says so. */
static void test_counter_values(void **state)
{
	(void)state;
	struct cct *t = cct_new(FUNC_NONE);
	struct cct_builder *b = cct_thread_begin(t, 0, 0, 0);

	assert_true(cct_has_metric(t, CCT_TIME));
	assert_false(cct_has_metric(t, CCT_C1));
	cct_enter_values(b, 0, (const uint64_t[CCT_NMETRICS]){ 0, 100, 7 });
	cct_enter_values(b, 1, (const uint64_t[CCT_NMETRICS]){ 10, 130, 7 });
	cct_exit_values(b, (const uint64_t[CCT_NMETRICS]){ 20, 190, 9 }, EXIT_RETURN);
	cct_exit_values(b, (const uint64_t[CCT_NMETRICS]){ 30, 200, 9 }, EXIT_RETURN);
	cct_thread_end_values(b, (const uint64_t[CCT_NMETRICS]){ 30, 200, 9 });

	const struct cct_node *outer = &t->nodes[t->nodes[CCT_ROOT].first_child];
	const struct cct_node *inner = &t->nodes[outer->first_child];
	assert_int_equal(outer->total[CCT_C1], 100);
	assert_int_equal(outer->self[CCT_C1], 40);
	assert_int_equal(inner->total[CCT_C1], 60);
	assert_int_equal(inner->total[CCT_C2], 2);
	assert_int_equal(outer->self[CCT_C2], 0);
	assert_int_equal(t->nodes[CCT_ROOT].total[CCT_C1], 100);
	cct_free(t);
}

/* Focus on f: the outermost activations of f, from both callers, make
 * the root; a nested f stays a nested node. */
static void test_focus(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t m = fn(&b, "main"), x = fn(&b, "x"), y = fn(&b, "y"), f = fn(&b, "f"),
		 g = fn(&b, "g");

	begin(&b, 0, 0);
	enter(&b, m, 0);
	enter(&b, x, 10);
	enter(&b, f, 20);	/* main/x/f: 40 */
	enter(&b, g, 25);
	leave(&b, 35);
	enter(&b, f, 40);	/* nested: f/f, 10 */
	enter(&b, g, 42);
	leave(&b, 45);
	leave(&b, 50);
	leave(&b, 60);
	leave(&b, 70);
	enter(&b, y, 80);
	enter(&b, f, 90);	/* main/y/f: 20 */
	enter(&b, g, 95);
	leave(&b, 105);
	leave(&b, 110);
	leave(&b, 120);
	leave(&b, 130);
	end(&b, 130);

	struct cct *ft = cct_focus(b.t, f);
	const struct cct_node *root = &ft->nodes[CCT_ROOT];
	assert_int_equal(root->func, f);
	assert_int_equal(root->calls, 2);
	assert_int_equal(root->total[CCT_TIME], 60);
	assert_int_equal(root->total[CCT_TIME], b.p->funcs[f].total_ns);
	assert_int_equal(PATH(ft, g)->calls, 2);
	assert_int_equal(PATH(ft, g)->total[CCT_TIME], 20);
	assert_int_equal(PATH(ft, f)->calls, 1);
	assert_int_equal(PATH(ft, f, g)->calls, 1);
	assert_int_equal(PATH(ft, f)->total[CCT_TIME], 10);
	assert_null(PATH(ft, x));
	assert_int_equal(ft->calls, 2 + 2 + 1 + 1);
	assert_sums(ft);
	cct_free(ft);

	/* a function that never ran gives an empty root */
	uint32_t z = fn(&b, "never");
	ft = cct_focus(b.t, z);
	assert_int_equal(ft->nnodes, 1);
	assert_int_equal(ft->nodes[CCT_ROOT].total[CCT_TIME], 0);
	cct_free(ft);
	release(&b);
}

/* cct_child() keeps one node per (parent, function) across growth. */
static void test_many_children(void **state)
{
	(void)state;
	struct cct *t = cct_new(FUNC_NONE);

	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(cct_child(t, CCT_ROOT, i), i + 1);
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(cct_child(t, CCT_ROOT, i), i + 1);
	assert_int_equal(cct_child(t, 1, 7), 5001);
	assert_int_equal(t->nodes[5001].depth, 2);
	cct_free(t);
}

/* A deep recursion builds a deep tree without recursing in the model. */
static void test_deep_recursion(void **state)
{
	(void)state;
	struct both b = { 0 };
	uint32_t r = fn(&b, "r");
	const int depth = 200000;

	begin(&b, 0, 0);
	for (int i = 0; i < depth; i++)
		enter(&b, r, (uint64_t)i);
	for (int i = 0; i < depth; i++)
		leave(&b, (uint64_t)(depth + i));
	end(&b, 2 * (uint64_t)depth);

	assert_int_equal(b.t->nnodes, depth + 1);
	assert_int_equal(b.t->nodes[depth].depth, depth);
	assert_int_equal(b.t->nodes[CCT_ROOT].total[CCT_TIME], 2 * (uint64_t)depth - 1);
	assert_sums(b.t);
	struct cct *ft = cct_focus(b.t, r);
	assert_int_equal(ft->nnodes, depth);
	assert_int_equal(ft->nodes[CCT_ROOT].total[CCT_TIME], b.p->funcs[r].total_ns);
	cct_free(ft);
	release(&b);
}

static void test_symspec(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t *found;
	size_t n;

	uint32_t a = profile_intern_func(p, "work", "/usr/bin/prog", 0, 0, NULL, 0);
	uint32_t b = profile_intern_func(p, "work", "/lib/libw.so.1", 0, 0, NULL, 0);
	uint32_t c = profile_intern_func(p, "ns::f", "/usr/bin/prog", 0, 0, NULL, 0);

	assert_int_equal(symspec_match(p, "work", &found, &n), SYMSPEC_FOUND);
	assert_int_equal(n, 2);
	assert_int_equal(found[0], a);
	assert_int_equal(found[1], b);
	free(found);
	assert_int_equal(symspec_match(p, "libw.so.1:work", &found, &n), SYMSPEC_FOUND);
	assert_int_equal(n, 1);
	assert_int_equal(found[0], b);
	free(found);
	assert_int_equal(symspec_match(p, "ns::f", &found, &n), SYMSPEC_FOUND);
	assert_int_equal(found[0], c);
	free(found);
	assert_int_equal(symspec_match(p, "prog:ns::f", &found, &n), SYMSPEC_FOUND);
	assert_int_equal(found[0], c);
	free(found);
	assert_int_equal(symspec_match(p, "nope", &found, &n), SYMSPEC_NO_FUNCTION);
	assert_null(found);
	assert_int_equal(symspec_match(p, "prog:nope", &found, &n), SYMSPEC_NO_FUNCTION);
	assert_int_equal(symspec_match(p, "libx.so:work", &found, &n), SYMSPEC_NO_OBJECT);
	assert_int_equal(symspec_match(p, "main.c:work", &found, &n), SYMSPEC_UNSUPPORTED);
	assert_int_equal(symspec_match(p, "main.c:134", &found, &n), SYMSPEC_UNSUPPORTED);
	assert_int_equal(symspec_match(p, "", &found, &n), SYMSPEC_EMPTY);
	assert_int_equal(symspec_match(p, ":work", &found, &n), SYMSPEC_EMPTY);
	assert_int_equal(symspec_match(p, "prog:", &found, &n), SYMSPEC_EMPTY);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_recursion_nests),
		cmocka_unit_test(test_open_frames_and_virtual_returns),
		cmocka_unit_test(test_unwound),
		cmocka_unit_test(test_threads_merge),
		cmocka_unit_test(test_overhead_subtracted),
		cmocka_unit_test(test_paths_below_zero),
		cmocka_unit_test(test_counter_values),
		cmocka_unit_test(test_focus),
		cmocka_unit_test(test_many_children),
		cmocka_unit_test(test_deep_recursion),
		cmocka_unit_test(test_symspec),
	};
	return cmocka_run_group_tests_name("cct", tests, NULL, NULL);
}
