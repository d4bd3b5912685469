/*
 * profile_find_cycles() on profiles replayed from hand-written event
 * sequences, and the replay's exact times that the cycles are built from.
 * Hook costs are 0 so every number below can be checked by hand; the
 * comments next to the events give the arithmetic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"

#define EXIT UINT32_MAX		/* an event that returns from the innermost call */

struct event {
	uint32_t func;		/* EXIT, or the function entered */
	uint64_t time_ns;
};

/* Replays one thread of EVENTS (starting at START_NS, ending at END_NS)
 * with no hook cost. */
static void replay(struct profile *p, uint32_t tid, uint64_t start_ns,
		   const struct event *ev, size_t n, uint64_t end_ns)
{
	struct thread_info info = { .pid = 1, .tid = tid, .start_ns = start_ns };
	struct thread_builder *b = profile_thread_begin(p, &info, 0, 0);

	for (size_t i = 0; i < n; i++) {
		if (ev[i].func == EXIT)
			profile_exit(b, ev[i].time_ns, 0);
		else
			profile_enter(b, ev[i].func, ev[i].time_ns);
	}
	profile_thread_end(b, end_ns);
}

static uint32_t fn(struct profile *p, const char *name, uint64_t addr)
{
	return profile_intern_func(p, name, "/bin/prog", addr, 16, NULL, 0);
}

/* The arc CALLER -> CALLEE, which must exist. */
static const struct arc *arc_of(const struct profile *p, uint32_t caller, uint32_t callee)
{
	for (size_t i = 0; i < p->narcs; i++)
		if (p->arcs[i].caller == caller && p->arcs[i].callee == callee)
			return &p->arcs[i];
	fail_msg("no arc %u -> %u", caller, callee);
	return NULL;
}

static void assert_arc(const struct profile *p, uint32_t caller, uint32_t callee,
		       uint64_t count, uint64_t self_ns, uint64_t child_ns)
{
	const struct arc *a = arc_of(p, caller, callee);
	assert_int_equal(a->count, count);
	assert_int_equal(a->self_ns, self_ns);
	assert_int_equal(a->child_ns, child_ns);
}

static void assert_func(const struct profile *p, uint32_t f, uint64_t calls,
			uint64_t self_ns, uint64_t total_ns)
{
	assert_int_equal(p->funcs[f].calls, calls);
	assert_int_equal(p->funcs[f].self_ns, self_ns);
	assert_int_equal(p->funcs[f].total_ns, total_ns);
}

/*
 * The arcs into F, summed, give F's self and total: nested activations
 * add their self time to the outermost one's arc and nothing else.
 */
static void assert_arcs_add_up(const struct profile *p, uint32_t f)
{
	uint64_t self = 0, total = 0;

	for (size_t i = 0; i < p->narcs; i++) {
		if (p->arcs[i].callee != f)
			continue;
		self += p->arcs[i].self_ns;
		total += p->arcs[i].self_ns + p->arcs[i].child_ns;
	}
	assert_int_equal(self, p->funcs[f].self_ns);
	assert_int_equal(total, p->funcs[f].total_ns);
}

/* main -> a -> b -> a -> b -> c: mutual recursion with a leaf below. */
static struct profile *mutual_profile(uint32_t *main_, uint32_t *a, uint32_t *b, uint32_t *c)
{
	struct profile *p = profile_new();

	*main_ = fn(p, "main", 0x1000);
	*a = fn(p, "a", 0x2000);
	*b = fn(p, "b", 0x3000);
	*c = fn(p, "c", 0x4000);
	const struct event ev[] = {
		{ *main_, 0 },
		{ *a, 10 },
		{ *b, 20 },
		{ *a, 30 },
		{ *b, 40 },
		{ *c, 42 },
		{ EXIT, 47 },	/* c: 5, all self */
		{ EXIT, 50 },	/* inner b: 10 = self 5 + c 5 */
		{ EXIT, 60 },	/* inner a: 30 = self 20 + b 10 */
		{ EXIT, 70 },	/* outer b: 50 = self 20 + a 30 */
		{ EXIT, 80 },	/* outer a: 70 = self 20 + b 50 */
		{ EXIT, 100 },	/* main: 100 = self 30 + a 70 */
	};
	replay(p, 1, 0, ev, sizeof(ev) / sizeof(ev[0]), 100);
	return p;
}

static void test_mutual_recursion_exact(void **state)
{
	uint32_t main_, a, b, c;
	struct profile *p = mutual_profile(&main_, &a, &b, &c);
	(void)state;

	/* The replay, by hand: a's self is 20 + 20, b's 5 + 20; totals
	 * count the outermost activations only. */
	assert_func(p, main_, 1, 30, 100);
	assert_func(p, a, 2, 40, 70);
	assert_func(p, b, 2, 25, 50);
	assert_func(p, c, 1, 5, 5);
	assert_arc(p, FUNC_NONE, main_, 1, 30, 70);
	assert_arc(p, main_, a, 1, 40, 30);	/* outer a, with inner a's self */
	assert_arc(p, a, b, 2, 25, 25);		/* outer b, with inner b's self */
	assert_arc(p, b, a, 1, 0, 0);		/* inner a only: nested */
	assert_arc(p, b, c, 1, 5, 0);
	assert_int_equal(p->narcs, 5);
	for (uint32_t f = 0; f < p->nfuncs; f++)
		assert_arcs_add_up(p, f);

	/* The recursion rule: no total exceeds the thread's span. */
	assert_int_equal(p->wall_ns, 100);
	for (uint32_t f = 0; f < p->nfuncs; f++)
		assert_true(p->funcs[f].total_ns <= p->wall_ns);

	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 1);
	const struct cycle *cy = &p->cycles[0];
	assert_int_equal(cy->nmembers, 2);
	assert_int_equal(cy->members[0], a);
	assert_int_equal(cy->members[1], b);
	assert_int_equal(p->funcs[a].cycle, 1);
	assert_int_equal(p->funcs[b].cycle, 1);
	assert_int_equal(p->funcs[main_].cycle, 0);
	assert_int_equal(p->funcs[c].cycle, 0);
	assert_int_equal(cy->calls, 1);			/* main -> a */
	assert_int_equal(cy->internal_calls, 3);	/* a -> b twice, b -> a once */
	assert_int_equal(cy->self_ns, 65);		/* 40 + 25 */
	assert_int_equal(cy->total_ns, 70);		/* + b -> c, 5 */
	/* Entered once from outside: the cycle's total is that call's. */
	assert_int_equal(cy->total_ns, p->funcs[a].total_ns);
	profile_free(p);
}

static void test_find_cycles_twice(void **state)
{
	uint32_t main_, a, b, c;
	struct profile *p = mutual_profile(&main_, &a, &b, &c);
	(void)state;

	profile_find_cycles(p);
	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 1);
	assert_int_equal(p->cycles[0].nmembers, 2);
	assert_int_equal(p->cycles[0].calls, 1);
	assert_int_equal(p->cycles[0].internal_calls, 3);
	assert_int_equal(p->cycles[0].self_ns, 65);
	assert_int_equal(p->cycles[0].total_ns, 70);
	assert_int_equal(p->funcs[a].cycle, 1);
	profile_free(p);	/* valgrind: the first call's cycles were freed */
}

static void test_self_recursion_is_no_cycle(void **state)
{
	struct profile *p = profile_new();
	uint32_t main_ = fn(p, "main", 0x1000), fact = fn(p, "fact", 0x2000);
	const struct event ev[] = {
		{ main_, 0 },
		{ fact, 10 },
		{ fact, 20 },
		{ fact, 30 },
		{ EXIT, 40 },	/* fact(1): 10 */
		{ EXIT, 50 },	/* fact(2): 30 = self 20 + 10 */
		{ EXIT, 60 },	/* fact(3): 50 = self 20 + 30 */
		{ EXIT, 70 },	/* main: 70 = self 20 + 50 */
	};
	(void)state;

	replay(p, 1, 0, ev, sizeof(ev) / sizeof(ev[0]), 70);
	assert_func(p, fact, 3, 50, 50);	/* total 50, not 50 + 30 + 10 */
	assert_func(p, main_, 1, 20, 70);
	assert_arc(p, main_, fact, 1, 50, 0);
	assert_arc(p, fact, fact, 2, 0, 0);
	assert_true(p->funcs[fact].total_ns <= p->wall_ns);
	assert_arcs_add_up(p, fact);

	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 0);
	assert_null(p->cycles);
	assert_int_equal(p->funcs[fact].cycle, 0);
	profile_free(p);
}

/*
 * Two cycles, numbered by their lowest address: {p, q, r} holds q at
 * 0x100, below x at 0x200, so it is cycle 1 even though x's cycle is met
 * first.  q also calls itself, which is neither a cycle nor an internal
 * call.
 */
static void test_two_cycles_numbered_by_address(void **state)
{
	struct profile *pr = profile_new();
	uint32_t main_ = fn(pr, "main", 0x1000);
	uint32_t x = fn(pr, "x", 0x200), y = fn(pr, "y", 0x400);
	uint32_t p = fn(pr, "p", 0x500), q = fn(pr, "q", 0x100), r = fn(pr, "r", 0x300);
	const struct event ev[] = {
		{ main_, 0 },
		{ x, 10 },
		{ y, 20 },
		{ x, 30 },
		{ EXIT, 35 },	/* inner x: 5 */
		{ EXIT, 40 },	/* y: 20 = self 15 + 5 */
		{ EXIT, 50 },	/* outer x: 40 = self 20 + 20 */
		{ p, 60 },
		{ q, 70 },
		{ q, 72 },
		{ EXIT, 74 },	/* inner q: 2 */
		{ r, 80 },
		{ p, 85 },
		{ EXIT, 86 },	/* inner p: 1 */
		{ EXIT, 90 },	/* r: 10 = self 9 + 1 */
		{ EXIT, 95 },	/* outer q: 25 = self 13 + 2 + 10 */
		{ EXIT, 100 },	/* outer p: 40 = self 15 + 25 */
		{ EXIT, 110 },	/* main: 110 = self 30 + 40 + 40 */
	};
	(void)state;

	replay(pr, 1, 0, ev, sizeof(ev) / sizeof(ev[0]), 110);
	assert_func(pr, x, 2, 25, 40);
	assert_func(pr, y, 1, 15, 20);
	assert_func(pr, p, 2, 16, 40);
	assert_func(pr, q, 2, 15, 25);
	assert_func(pr, r, 1, 9, 10);
	assert_arc(pr, main_, p, 1, 16, 24);
	assert_arc(pr, p, q, 1, 15, 10);
	assert_arc(pr, q, r, 1, 9, 1);
	assert_arc(pr, r, p, 1, 0, 0);

	profile_find_cycles(pr);
	assert_int_equal(pr->ncycles, 2);

	const struct cycle *c1 = &pr->cycles[0];
	assert_int_equal(c1->nmembers, 3);
	assert_int_equal(c1->members[0], q);	/* by address: 0x100, 0x300, 0x500 */
	assert_int_equal(c1->members[1], r);
	assert_int_equal(c1->members[2], p);
	assert_int_equal(c1->calls, 1);
	assert_int_equal(c1->internal_calls, 3);	/* p->q, q->r, r->p; not q->q */
	assert_int_equal(c1->self_ns, 40);
	assert_int_equal(c1->total_ns, 40);

	const struct cycle *c2 = &pr->cycles[1];
	assert_int_equal(c2->nmembers, 2);
	assert_int_equal(c2->members[0], x);
	assert_int_equal(c2->members[1], y);
	assert_int_equal(c2->calls, 1);
	assert_int_equal(c2->internal_calls, 2);
	assert_int_equal(c2->self_ns, 40);
	assert_int_equal(c2->total_ns, 40);

	assert_int_equal(pr->funcs[p].cycle, 1);
	assert_int_equal(pr->funcs[q].cycle, 1);
	assert_int_equal(pr->funcs[r].cycle, 1);
	assert_int_equal(pr->funcs[x].cycle, 2);
	assert_int_equal(pr->funcs[y].cycle, 2);
	assert_int_equal(pr->funcs[main_].cycle, 0);
	profile_free(pr);
}

/* Addresses unknown (all 0): cycles and members are ordered by name. */
static void test_ties_ordered_by_name(void **state)
{
	struct profile *p = profile_new();
	uint32_t main_ = fn(p, "main", 0);
	uint32_t m = fn(p, "m", 0), n = fn(p, "n", 0);
	uint32_t l = fn(p, "l", 0), k = fn(p, "k", 0);
	const struct event ev[] = {
		{ main_, 0 }, { n, 1 }, { m, 2 }, { n, 3 },
		{ EXIT, 4 }, { EXIT, 5 }, { EXIT, 6 },
		{ l, 7 }, { k, 8 }, { l, 9 },
		{ EXIT, 10 }, { EXIT, 11 }, { EXIT, 12 },
		{ EXIT, 13 },
	};
	(void)state;

	replay(p, 1, 0, ev, sizeof(ev) / sizeof(ev[0]), 13);
	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 2);
	assert_int_equal(p->cycles[0].members[0], k);
	assert_int_equal(p->cycles[0].members[1], l);
	assert_int_equal(p->cycles[1].members[0], m);
	assert_int_equal(p->cycles[1].members[1], n);
	assert_int_equal(p->funcs[k].cycle, 1);
	assert_int_equal(p->funcs[m].cycle, 2);
	profile_free(p);
}

/*
 * Calls into a member from outside the cycle include the spontaneous ones:
 * a second thread starts in b.  Its arc b -> a then carries time (that a
 * was outermost in its thread), still an internal call.
 */
static void test_spontaneous_call_into_cycle(void **state)
{
	struct profile *p = profile_new();
	uint32_t main_ = fn(p, "main", 0x1000), a = fn(p, "a", 0x2000), b = fn(p, "b", 0x3000);
	const struct event t1[] = {
		{ main_, 0 }, { a, 10 }, { b, 20 }, { a, 30 },
		{ EXIT, 40 },	/* inner a: 10 */
		{ EXIT, 50 },	/* b: 30 = self 20 + 10 */
		{ EXIT, 60 },	/* a: 50 = self 20 + 30 */
		{ EXIT, 70 },	/* main: 70 = self 20 + 50 */
	};
	const struct event t2[] = {
		{ b, 100 }, { a, 110 },
		{ EXIT, 120 },	/* a: 10, outermost in this thread */
		{ EXIT, 130 },	/* b: 30 = self 20 + 10 */
	};
	(void)state;

	replay(p, 1, 0, t1, sizeof(t1) / sizeof(t1[0]), 70);
	replay(p, 2, 100, t2, sizeof(t2) / sizeof(t2[0]), 130);
	assert_func(p, a, 3, 40, 60);
	assert_func(p, b, 2, 40, 60);
	assert_arc(p, FUNC_NONE, b, 1, 20, 10);
	assert_arc(p, b, a, 2, 10, 0);
	assert_int_equal(p->wall_ns, 70);

	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 1);
	assert_int_equal(p->cycles[0].calls, 2);		/* main -> a, <spontaneous> -> b */
	assert_int_equal(p->cycles[0].internal_calls, 3);	/* a -> b, b -> a twice */
	assert_int_equal(p->cycles[0].self_ns, 80);
	assert_int_equal(p->cycles[0].total_ns, 80);
	profile_free(p);
}

#define DEEP 100000

/*
 * a and b calling each other DEEP levels down.  Frame k (a for even k, b
 * for odd) enters at 1 + k and returns at 2 * DEEP - k: each frame but the
 * innermost has 2 ns of self.
 */
static void test_deep_mutual_recursion(void **state)
{
	struct profile *p = profile_new();
	uint32_t main_ = fn(p, "main", 0x1000), a = fn(p, "a", 0x2000), b = fn(p, "b", 0x3000);
	struct thread_info info = { .pid = 1, .tid = 1, .start_ns = 0 };
	struct thread_builder *tb = profile_thread_begin(p, &info, 0, 0);
	(void)state;

	profile_enter(tb, main_, 0);
	for (uint64_t k = 0; k < DEEP; k++)
		profile_enter(tb, k % 2 ? b : a, 1 + k);
	assert_int_equal(profile_depth(tb), DEEP + 1);
	for (uint64_t k = DEEP; k-- > 0;)
		profile_exit(tb, 2 * DEEP - k, 0);
	profile_exit(tb, 2 * DEEP + 1, 0);
	profile_thread_end(tb, 2 * DEEP + 1);

	assert_int_equal(p->wall_ns, 2 * DEEP + 1);
	assert_func(p, a, DEEP / 2, DEEP, 2 * DEEP - 1);
	assert_func(p, b, DEEP / 2, DEEP - 1, 2 * DEEP - 3);
	assert_true(p->funcs[a].total_ns <= p->wall_ns);
	assert_true(p->funcs[b].total_ns <= p->wall_ns);
	assert_arc(p, main_, a, 1, DEEP, DEEP - 1);
	assert_arc(p, a, b, DEEP / 2, DEEP - 1, DEEP - 2);
	assert_arc(p, b, a, DEEP / 2 - 1, 0, 0);

	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 1);
	assert_int_equal(p->cycles[0].calls, 1);
	assert_int_equal(p->cycles[0].internal_calls, DEEP - 1);
	assert_int_equal(p->cycles[0].self_ns, 2 * DEEP - 1);
	assert_int_equal(p->cycles[0].total_ns, 2 * DEEP - 1);
	profile_free(p);
}

/*
 * A chain of DEEP distinct functions, the last calling the first: one
 * cycle of DEEP members, so the depth-first search goes DEEP levels down
 * (a recursive search would overflow the C stack here).
 */
static void test_deep_chain_cycle(void **state)
{
	struct profile *p = profile_new();
	uint32_t main_ = fn(p, "main", 0x10);
	uint32_t *f = malloc(DEEP * sizeof(*f));
	char name[32];
	(void)state;

	/* Interned in reverse address order, so the member order really
	 * comes from sorting. */
	for (uint32_t i = DEEP; i-- > 0;) {
		snprintf(name, sizeof(name), "f%06u", (unsigned)i);
		f[i] = fn(p, name, 0x100000 + 16 * (uint64_t)i);
	}

	struct thread_info info = { .pid = 1, .tid = 1, .start_ns = 0 };
	struct thread_builder *tb = profile_thread_begin(p, &info, 0, 0);
	uint64_t t = 0;
	profile_enter(tb, main_, t++);
	for (uint32_t i = 0; i < DEEP; i++)
		profile_enter(tb, f[i], t++);
	profile_enter(tb, f[0], t++);
	while (profile_depth(tb))
		profile_exit(tb, t++, 0);
	profile_thread_end(tb, t);

	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 1);
	const struct cycle *cy = &p->cycles[0];
	assert_int_equal(cy->nmembers, DEEP);
	for (uint32_t i = 0; i < DEEP; i++) {
		assert_int_equal(cy->members[i], f[i]);
		assert_int_equal(p->funcs[f[i]].cycle, 1);
	}
	assert_int_equal(cy->calls, 1);
	assert_int_equal(cy->internal_calls, DEEP);	/* the chain and the way back */
	/* DEEP frames of 2 ns of self, and the innermost f000000 of 1. */
	assert_int_equal(cy->self_ns, 2 * DEEP + 1);
	assert_int_equal(cy->total_ns, cy->self_ns);
	assert_int_equal(cy->total_ns, p->funcs[f[0]].total_ns);
	assert_true(p->funcs[f[0]].total_ns <= p->wall_ns);
	assert_int_equal(p->funcs[main_].cycle, 0);
	free(f);
	profile_free(p);
}

static void test_empty_profile(void **state)
{
	struct profile *p = profile_new();
	(void)state;

	profile_find_cycles(p);
	assert_int_equal(p->ncycles, 0);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutual_recursion_exact),
		cmocka_unit_test(test_find_cycles_twice),
		cmocka_unit_test(test_self_recursion_is_no_cycle),
		cmocka_unit_test(test_two_cycles_numbered_by_address),
		cmocka_unit_test(test_ties_ordered_by_name),
		cmocka_unit_test(test_spontaneous_call_into_cycle),
		cmocka_unit_test(test_deep_mutual_recursion),
		cmocka_unit_test(test_deep_chain_cycle),
		cmocka_unit_test(test_empty_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
