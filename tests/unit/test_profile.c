/*
 * The model's replay rules on hand-built event sequences: exact counts,
 * self/total, recursion counted once, stack repair (longjmp), virtual
 * returns, open frames inherited by a forked child, and the subtraction
 * of the hooks' cost.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/hook_cost_rule.h"
#include "model/profile.h"

static struct thread_builder *begin(struct profile *p, double inner, double outer)
{
	struct thread_info info = { .pid = 1, .tid = 1, .start_ns = 0 };
	return profile_thread_begin(p, &info, inner, outer);
}

static uint32_t fn(struct profile *p, const char *name)
{
	return profile_intern_func(p, name, "prog", 0, 0, NULL, 0);
}

static const struct arc *find_arc(const struct profile *p, uint32_t caller, uint32_t callee)
{
	for (size_t i = 0; i < p->narcs; i++)
		if (p->arcs[i].caller == caller && p->arcs[i].callee == callee)
			return &p->arcs[i];
	return NULL;
}

static void test_self_and_total(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), a = fn(p, "a"), b = fn(p, "b");
	struct thread_builder *tb = begin(p, 0, 0);

	profile_enter(tb, m, 0);
	profile_enter(tb, a, 10);
	profile_enter(tb, b, 20);
	profile_exit(tb, 50, 0);	/* b: 30 */
	profile_exit(tb, 60, 0);	/* a: 50 total, 20 self */
	profile_enter(tb, b, 70);
	profile_exit(tb, 75, 0);	/* b: 5 */
	profile_exit(tb, 100, 0);	/* main: 100 total */
	profile_thread_end(tb, 100);

	assert_int_equal(p->funcs[m].calls, 1);
	assert_int_equal(p->funcs[m].total_ns, 100);
	assert_int_equal(p->funcs[m].self_ns, 100 - 50 - 5);
	assert_int_equal(p->funcs[a].self_ns, 20);
	assert_int_equal(p->funcs[a].total_ns, 50);
	assert_int_equal(p->funcs[b].calls, 2);
	assert_int_equal(p->funcs[b].total_ns, 35);
	assert_int_equal(p->funcs[b].min_ns, 5);
	assert_int_equal(p->funcs[b].max_ns, 30);
	assert_int_equal(p->funcs[b].sum_call_ns, 35);
	assert_int_equal(find_arc(p, a, b)->count, 1);
	assert_int_equal(find_arc(p, m, b)->count, 1);
	assert_int_equal(find_arc(p, a, b)->self_ns, 30);
	assert_int_equal(find_arc(p, FUNC_NONE, m)->count, 1);
	assert_int_equal(p->calls, 4);
	profile_free(p);
}

/* fact(3) -> fact(2) -> fact(1): the total counts the outermost only. */
static void test_recursion_counted_once(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), f = fn(p, "fact");
	struct thread_builder *tb = begin(p, 0, 0);

	profile_enter(tb, m, 0);
	profile_enter(tb, f, 10);
	profile_enter(tb, f, 20);
	profile_enter(tb, f, 30);
	profile_exit(tb, 40, 0);
	profile_exit(tb, 50, 0);
	profile_exit(tb, 60, 0);
	profile_exit(tb, 70, 0);
	profile_thread_end(tb, 70);

	assert_int_equal(p->funcs[f].calls, 3);
	assert_int_equal(p->funcs[f].total_ns, 50);
	assert_int_equal(p->funcs[f].self_ns, 50);
	assert_true(p->funcs[f].total_ns <= p->wall_ns);
	assert_int_equal(p->funcs[f].max_ns, 50);
	assert_int_equal(p->funcs[f].min_ns, 10);
	/* the self arc carries counts, and main's arc all the time */
	assert_int_equal(find_arc(p, f, f)->count, 2);
	assert_int_equal(find_arc(p, m, f)->self_ns, 50);
	assert_int_equal(find_arc(p, m, f)->child_ns, 0);
	assert_int_equal(p->funcs[m].self_ns, 20);
	profile_free(p);
}

/* a -> b -> c, then stack repair back into a: b and c are closed as
 * unwound at the time the repair was seen, and a goes on. */
static void test_unwound_frames(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t a = fn(p, "a"), b = fn(p, "b"), c = fn(p, "c"), d = fn(p, "d");
	struct thread_builder *tb = begin(p, 0, 0);

	profile_enter(tb, a, 0);
	profile_enter(tb, b, 10);
	profile_enter(tb, c, 20);
	profile_exit(tb, 40, EXIT_THROWN);
	profile_exit(tb, 40, EXIT_UNWOUND);
	assert_int_equal(profile_depth(tb), 1);
	profile_enter(tb, d, 50);
	profile_exit(tb, 60, 0);
	profile_exit(tb, 100, 0);
	profile_thread_end(tb, 100);

	assert_int_equal(p->funcs[b].unwound, 1);
	assert_int_equal(p->funcs[c].unwound, 1);
	assert_int_equal(p->funcs[a].unwound, 0);
	/* which repair: an exception left c, a longjmp b */
	assert_int_equal(p->funcs[c].thrown, 1);
	assert_int_equal(p->funcs[b].thrown, 0);
	assert_int_equal(p->funcs[b].total_ns, 30);
	assert_int_equal(p->funcs[c].total_ns, 20);
	assert_non_null(find_arc(p, a, d));
	assert_null(find_arc(p, c, d));
	assert_int_equal(p->funcs[a].self_ns, 100 - 30 - 10);
	profile_free(p);
}

/* Calls still open at the end are closed there and marked. */
static void test_virtual_returns(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), w = fn(p, "work");
	struct thread_builder *tb = begin(p, 0, 0);

	profile_enter(tb, m, 0);
	profile_enter(tb, w, 10);
	profile_thread_end(tb, 90);

	assert_int_equal(p->funcs[m].virtual_returns, 1);
	assert_int_equal(p->funcs[w].virtual_returns, 1);
	assert_int_equal(p->funcs[w].calls, 1);
	assert_int_equal(p->funcs[w].total_ns, 80);
	assert_int_equal(p->funcs[m].total_ns, 90);
	assert_int_equal(p->threads[0].end_ns, 90);
	profile_free(p);
}

/* A forked child's stream starts inside main -> spawn: those frames are
 * closed but not counted as calls. */
static void test_open_frames(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), s = fn(p, "spawn"), c = fn(p, "child_work");
	struct thread_builder *tb = begin(p, 0, 0);

	profile_open_frame(tb, m, 100);
	profile_open_frame(tb, s, 100);
	profile_enter(tb, c, 110);
	profile_exit(tb, 130, 0);
	profile_exit(tb, 140, 0);
	profile_exit(tb, 150, 0);
	profile_thread_end(tb, 150);

	assert_int_equal(p->funcs[m].calls, 0);
	assert_int_equal(p->funcs[s].calls, 0);
	assert_int_equal(p->funcs[c].calls, 1);
	assert_int_equal(p->funcs[s].self_ns, 20);
	assert_int_equal(p->calls, 1);
	assert_null(find_arc(p, FUNC_NONE, m));
	assert_non_null(find_arc(p, s, c));
	profile_free(p);
}

/*
 * With hooks costing 2 ns inside the callee and 3 ns outside, a caller
 * that made 10 empty calls over 100 ns really spent 100 - 10*5 - 2 ns;
 * each callee (raw 2 ns) really spent nothing.
 */
static void test_overhead_subtracted(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), l = fn(p, "leaf");
	struct thread_builder *tb = begin(p, 2, 3);
	uint64_t t = 0;

	profile_enter(tb, m, t);
	for (int i = 0; i < 10; i++) {
		t += 3;
		profile_enter(tb, l, t);
		t += 2;
		profile_exit(tb, t, 0);
	}
	t += 50;
	profile_exit(tb, t, 0);
	profile_thread_end(tb, t);

	assert_int_equal(t, 100);
	assert_int_equal(p->funcs[l].self_ns, 0);
	assert_int_equal(p->funcs[l].total_ns, 0);
	assert_int_equal(p->funcs[m].total_ns, 100 - 10 * 5 - 2);
	assert_int_equal(p->funcs[m].self_ns, 100 - 10 * 5 - 2);
	assert_int_equal(p->overhead_ns, 11 * 5);
	profile_free(p);
}

/*
 * With the hooks' cost measured in place, calls shorter than it lose it
 * all the same, summed signed: a leaf whose calls take 4 and 26 ns with 10 ns of hooks inside
 * each is 5 ns a call on average, not 8 (what holding each call at 0
 * gives), and its caller keeps its own time rather than handing the
 * difference to the leaf.  One call's figures stay at or above 0.
 */
static void test_short_calls_summed_signed(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), l = fn(p, "leaf");
	struct thread_info info = { .pid = 1, .tid = 1, .hooks_in_place = 1 };
	struct thread_builder *tb = profile_thread_begin(p, &info, 10, 5);
	uint64_t t = 0;

	profile_enter(tb, m, t);
	for (int i = 0; i < 10; i++) {
		t += 7;
		profile_enter(tb, l, t);
		t += i % 2 ? 26 : 4;
		profile_exit(tb, t, 0);
	}
	t += 20;
	profile_exit(tb, t, 0);
	profile_thread_end(tb, t);

	assert_int_equal(t, 240);
	assert_int_equal(p->funcs[l].self_ns, 5 * (-6 + 16));
	assert_int_equal(p->funcs[l].total_ns, 50);
	assert_int_equal(p->funcs[l].min_ns, 0);
	assert_int_equal(p->funcs[l].max_ns, 16);
	/* main: 240 less 10 calls' hooks and its own inner part */
	assert_int_equal(p->funcs[m].total_ns, 240 - 10 * 15 - 10);
	assert_int_equal(p->funcs[m].self_ns, 10 * (7 - 5) + 20 - 10);
	const struct arc *a = find_arc(p, m, l);
	assert_non_null(a);
	assert_int_equal(a->self_ns, 50);
	profile_free(p);
}

/* A million-deep recursion replays without recursion in the model. */
static void test_deep_recursion(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t r = fn(p, "r");
	struct thread_builder *tb = begin(p, 0, 0);
	const int depth = 1000000;

	for (int i = 0; i < depth; i++)
		profile_enter(tb, r, (uint64_t)i);
	for (int i = 0; i < depth; i++)
		profile_exit(tb, (uint64_t)(depth + i), 0);
	profile_thread_end(tb, 2 * (uint64_t)depth);

	assert_int_equal(p->funcs[r].calls, depth);
	assert_int_equal(p->funcs[r].total_ns, 2 * (uint64_t)depth - 1);
	assert_int_equal(p->funcs[r].self_ns, 2 * (uint64_t)depth - 1);
	profile_free(p);
}

/* Calls of 10, 20, 30 and 40 ns: mean 25, population variance 125. */
static void test_call_stddev(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), w = fn(p, "work");
	struct thread_builder *tb = begin(p, 0, 0);
	uint64_t t = 0;

	profile_enter(tb, m, t);
	for (uint64_t d = 10; d <= 40; d += 10) {
		profile_enter(tb, w, t += 5);
		profile_exit(tb, t += d, 0);
	}
	profile_exit(tb, t += 5, 0);
	profile_thread_end(tb, t);

	assert_float_equal(func_stddev_ns(&p->funcs[w]), 11.180339887, 1e-6);
	assert_float_equal(func_stddev_ns(&p->funcs[m]), 0, 0);
	assert_int_equal(p->funcs[w].sum_call_ns, 100);
	profile_free(p);
}

/* Periods run from start to start on one thread: starts at 0, 100, 250
 * give 100 and 150; another thread's call pairs with nothing. */
static void test_periods(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t w = fn(p, "work"), once = fn(p, "once");
	struct thread_builder *tb = begin(p, 0, 0);

	profile_enter(tb, once, 0);
	profile_exit(tb, 1, 0);
	for (uint64_t t = 0; t <= 250; t += t == 100 ? 150 : 100) {
		profile_enter(tb, w, t + 10);
		profile_exit(tb, t + 20, 0);
	}
	profile_thread_end(tb, 300);
	tb = begin(p, 0, 0);
	profile_enter(tb, w, 1000);
	profile_exit(tb, 1010, 0);
	profile_thread_end(tb, 1010);

	assert_int_equal(p->funcs[w].calls, 4);
	assert_int_equal(p->funcs[w].periods, 2);
	assert_int_equal(p->funcs[w].period_min_ns, 100);
	assert_int_equal(p->funcs[w].period_max_ns, 150);
	assert_int_equal(func_period_avg_ns(&p->funcs[w]), 125);
	assert_int_equal(p->funcs[once].periods, 0);
	assert_int_equal(func_period_avg_ns(&p->funcs[once]), 0);
	profile_free(p);
}

/*
 * With hooks costing 5 ns a call, a's two starts 40 ns apart with one
 * call of b between them are really 40 - 2 * 5 ns apart; back-to-back
 * empty leaves are 0 ns apart.
 */
static void test_period_overhead(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), a = fn(p, "a"), b = fn(p, "b"), l = fn(p, "leaf");
	struct thread_builder *tb = begin(p, 2, 3);

	profile_enter(tb, m, 0);
	profile_enter(tb, a, 0);
	profile_exit(tb, 10, 0);
	profile_enter(tb, b, 20);
	profile_exit(tb, 30, 0);
	profile_enter(tb, a, 40);
	profile_exit(tb, 50, 0);
	for (uint64_t t = 100; t < 150; t += 5) {
		profile_enter(tb, l, t + 3);
		profile_exit(tb, t + 5, 0);
	}
	profile_exit(tb, 200, 0);
	profile_thread_end(tb, 200);

	assert_int_equal(p->funcs[a].period_min_ns, 30);
	assert_int_equal(p->funcs[l].periods, 9);
	assert_int_equal(p->funcs[l].period_max_ns, 0);
	profile_free(p);
}

struct observed {
	uint32_t func;
	uint64_t calls, sum;
};

static void observe(void *ctx, uint32_t func, uint64_t total_ns)
{
	struct observed *o = ctx;
	if (func == o->func) {
		o->calls++;
		o->sum += total_ns;
	}
}

/* The call observer sees every counted call with its inclusive time. */
static void test_call_observer(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main"), f = fn(p, "fact");
	struct observed o = { f, 0, 0 };

	p->call_observer = observe;
	p->call_observer_ctx = &o;
	struct thread_builder *tb = begin(p, 0, 0);
	profile_open_frame(tb, m, 0);
	profile_enter(tb, f, 10);
	profile_enter(tb, f, 20);
	profile_exit(tb, 30, 0);
	profile_exit(tb, 50, 0);
	profile_thread_end(tb, 60);

	assert_int_equal(o.calls, 2);
	assert_int_equal(o.sum, 10 + 40);
	assert_int_equal(o.sum, p->funcs[f].sum_call_ns);
	profile_free(p);
}

/*
 * The runtime takes the hooks' cost off a call as a whole number of
 * units found before the clock read (hook_cost_units()); it must be the
 * analyzer's rule for every interval, rounding and the floor at 0
 * included.
 */
static void test_hook_cost_units(void **state)
{
	(void)state;
	static const uint64_t big[] = { 1ull << 20, (1ull << 32) + 77, 1ull << 50 };

	for (uint64_t q = 0; q < 4 * 256 + 3; q++)
		for (uint64_t raw = 0; raw < 8; raw++) {
			uint64_t c = hook_cost_units(q);
			assert_int_equal(hook_cost_less(raw, q), raw > c ? raw - c : 0);
		}
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		for (uint64_t q = big[i] * 256 - 300; q < big[i] * 256 + 300; q += 7) {
			uint64_t c = hook_cost_units(q);
			for (uint64_t raw = big[i] - 3; raw < big[i] + 3; raw++)
				assert_int_equal(hook_cost_less(raw, q), raw > c ? raw - c : 0);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_and_total),
		cmocka_unit_test(test_recursion_counted_once),
		cmocka_unit_test(test_unwound_frames),
		cmocka_unit_test(test_virtual_returns),
		cmocka_unit_test(test_open_frames),
		cmocka_unit_test(test_overhead_subtracted),
		cmocka_unit_test(test_short_calls_summed_signed),
		cmocka_unit_test(test_deep_recursion),
		cmocka_unit_test(test_call_stddev),
		cmocka_unit_test(test_periods),
		cmocka_unit_test(test_period_overhead),
		cmocka_unit_test(test_call_observer),
		cmocka_unit_test(test_hook_cost_units),
	};
	return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
