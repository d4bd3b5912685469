/*
 * --signal-filter on count-mode call-path nodes (model/aggregate.h): a
 * handler interrupting busy(), with a second signal nested inside it.
 * exclude drops both handlers with everything beneath and takes the outer
 * one's time out of busy and main (once: the nested one is inside it);
 * none hangs the handlers' calls from the call they interrupted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/aggregate.h"
#include "model/cct.h"
#include "model/histogram.h"
#include "model/profile.h"

enum { ROOT, TRUNC, MAIN, BUSY, SIG, ON_ALARM, SIG2, LEAF, TAIL, NNODES };

/* func = the node's own index, so a node can be recognized after moving */
static void build(struct aggregate_node *n)
{
	static const uint32_t parent[NNODES] = { 0, ROOT, ROOT, MAIN, BUSY, SIG, ON_ALARM, SIG2,
						 MAIN };
	static const uint64_t total[NNODES] = { 0, 0, 1000, 900, 100, 90, 10, 5, 50 };

	memset(n, 0, NNODES * sizeof(*n));
	for (uint32_t i = 0; i < NNODES; i++) {
		n[i].func = i ? i : FUNC_NONE;
		n[i].parent = parent[i];
		n[i].calls = i > TRUNC;
		n[i].total_ns = total[i];
	}
	n[SIG].signal = n[SIG2].signal = 1;
}

/* The node now holding the function FUNC, or -1. */
static int find(const struct aggregate_node *n, size_t count, uint32_t func)
{
	for (size_t i = 0; i < count; i++)
		if (n[i].func == func)
			return (int)i;
	return -1;
}

static void test_exclude(void **state)
{
	struct aggregate_node n[NNODES];
	(void)state;

	build(n);
	size_t kept = aggregate_filter_signals(n, NNODES, 1);
	assert_int_equal(kept, 5);	/* root, <truncated>, main, busy, tail */
	assert_int_equal(find(n, kept, ON_ALARM), -1);
	assert_int_equal(find(n, kept, LEAF), -1);
	assert_int_equal(n[find(n, kept, BUSY)].total_ns, 800);
	assert_int_equal(n[find(n, kept, MAIN)].total_ns, 900);
	assert_int_equal(n[find(n, kept, TAIL)].total_ns, 50);
	assert_int_equal(n[find(n, kept, TAIL)].parent, find(n, kept, MAIN));
	assert_int_equal(n[TRUNC].func, TRUNC);	/* node 1 stays node 1 */
	assert_int_equal(aggregate_check(n, kept, NNODES), 0);
}

static void test_none(void **state)
{
	struct aggregate_node n[NNODES];
	(void)state;

	build(n);
	size_t kept = aggregate_filter_signals(n, NNODES, 0);
	assert_int_equal(kept, NNODES - 2);
	assert_int_equal(find(n, kept, SIG), -1);
	assert_int_equal(find(n, kept, SIG2), -1);
	assert_int_equal(n[find(n, kept, ON_ALARM)].parent, find(n, kept, BUSY));
	assert_int_equal(n[find(n, kept, LEAF)].parent, find(n, kept, ON_ALARM));
	assert_int_equal(n[find(n, kept, BUSY)].total_ns, 900);	/* time stays */
	assert_int_equal(aggregate_check(n, kept, NNODES), 0);
}

static void test_no_signals(void **state)
{
	struct aggregate_node n[NNODES], before[NNODES];
	(void)state;

	build(n);
	n[SIG].signal = n[SIG2].signal = 0;
	memcpy(before, n, sizeof(n));
	assert_int_equal(aggregate_filter_signals(n, NNODES, 1), NNODES);
	assert_memory_equal(n, before, sizeof(n));
	assert_int_equal(aggregate_filter_signals(n, 1, 1), 1);
	assert_int_equal(aggregate_filter_signals(n, 0, 0), 0);
}

static void test_exclude_counters(void **state)
{
	struct aggregate_node n[NNODES];
	(void)state;

	build(n);
	for (uint32_t i = 2; i < NNODES; i++)
		n[i].counter_total[1] = n[i].total_ns / 10;	/* 100, 90, 10, 9, 1, 0.5, 5 */
	size_t kept = aggregate_filter_signals(n, NNODES, 1);
	/* the outer handler's 10 leave busy and main, as its time does */
	assert_int_equal(n[find(n, kept, BUSY)].counter_total[1], 80);
	assert_int_equal(n[find(n, kept, MAIN)].counter_total[1], 90);
	assert_int_equal(n[find(n, kept, MAIN)].counter_total[0], 0);
}

/*
 * main calls f, f calls f (a recursive path) and g.  Counter C1 per
 * path: main 100 in all, f 70 (of which the nested f 20, g 30).
 */
enum { R_ROOT, R_TRUNC, R_MAIN, R_F, R_FF, R_G, R_N };

static struct profile *recursion_profile(struct aggregate_node *n, uint32_t *fn)
{
	static const uint32_t parent[R_N] = { 0, 0, R_ROOT, R_MAIN, R_F, R_F };
	static const uint64_t c1[R_N] = { 0, 0, 100, 70, 20, 30 };
	static const char *const names[] = { "main", "f", "g" };
	struct profile *p = profile_new();

	p->ncounters = 1;
	for (int i = 0; i < 3; i++)
		fn[i] = profile_intern_func(p, names[i], "prog", 0x1000 + (uint64_t)i, 0, NULL, 0);
	memset(n, 0, R_N * sizeof(*n));
	for (uint32_t i = 0; i < R_N; i++) {
		n[i].parent = parent[i];
		n[i].calls = i >= R_MAIN;
		n[i].total_ns = c1[i] * 10;
		n[i].counter_total[0] = c1[i];
	}
	n[R_ROOT].func = FUNC_NONE;
	n[R_TRUNC].func = profile_intern_func(p, "<truncated>", "", 0, 0, NULL, 0);
	n[R_MAIN].func = fn[0];
	n[R_F].func = n[R_FF].func = fn[1];
	n[R_G].func = fn[2];
	return p;
}

static void test_counters_split(void **state)
{
	struct aggregate_node n[R_N];
	uint32_t fn[3];
	struct profile *p = recursion_profile(n, fn);
	struct aggregate_thread at = { n, R_N, NULL, 0, 0, 0, 1 };
	struct thread_info info;
	(void)state;

	memset(&info, 0, sizeof(info));
	assert_int_equal(profile_add_aggregate(p, &info, &at), 0);
	/* self = path total less its callees'; the nested f counted once in f's total */
	assert_int_equal(p->funcs[fn[0]].counter_self[0], 30);
	assert_int_equal(p->funcs[fn[0]].counter_total[0], 100);
	assert_int_equal(p->funcs[fn[1]].counter_self[0], 20 + 20);
	assert_int_equal(p->funcs[fn[1]].counter_total[0], 70);
	assert_int_equal(p->funcs[fn[2]].counter_self[0], 30);
	assert_int_equal(p->funcs[fn[0]].counters_unreliable, 0);

	struct cct *t = cct_new(FUNC_NONE);
	t->metrics |= 1u << CCT_C1;
	cct_add_aggregate(t, &at);
	uint64_t self = 0;
	for (size_t i = 0; i < t->nnodes; i++)
		self += t->nodes[i].self[CCT_C1];
	assert_int_equal(self, t->nodes[CCT_ROOT].total[CCT_C1]);
	assert_int_equal(self, 100);
	cct_free(t);
	profile_free(p);

	/* a thread whose counters were time-shared marks its functions */
	p = recursion_profile(n, fn);
	info.counter_info = THREAD_COUNTERS_UNRELIABLE | 1;
	assert_int_equal(profile_add_aggregate(p, &info, &at), 0);
	assert_int_equal(p->funcs[fn[1]].counters_unreliable, 1);
	profile_free(p);
}

/* Calls of 10, 20 and 30 ns on one thread, 40 on another: the spread,
 * shortest, longest and periods come out as a replay of them would. */
static void test_function_stats(void **state)
{
	struct aggregate_node n[R_N];
	uint32_t fn[3];
	struct profile *p = recursion_profile(n, fn);
	struct aggregate_func af[2];
	struct thread_info info;
	(void)state;

	memset(af, 0, sizeof(af));
	memset(&info, 0, sizeof(info));
	af[0] = (struct aggregate_func){ .func = fn[2], .calls = 3, .sum_ns = 60, .sum_sq_ns = 1400,
					 .min_ns = 10, .max_ns = 30, .periods = 2,
					 .period_sum_ns = 300, .period_min_ns = 100,
					 .period_max_ns = 200 };
	af[0].buckets[4] = 1;	/* 10 */
	af[0].buckets[5] = 2;	/* 20, 30 */
	af[1] = (struct aggregate_func){ .func = fn[2], .calls = 1, .sum_ns = 40, .sum_sq_ns = 1600,
					 .min_ns = 40, .max_ns = 40 };
	af[1].buckets[6] = 1;
	struct aggregate_thread at = { n, R_N, &af[0], 1, 0, 0, 1 };
	assert_int_equal(profile_add_aggregate(p, &info, &at), 0);
	at.funcs = &af[1];
	assert_int_equal(profile_add_aggregate(p, &info, &at), 0);
	const struct func *g = &p->funcs[fn[2]];
	/* 10, 20, 30, 40: mean 25, variance 125 */
	assert_true(func_stddev_ns(g) > 11.18 && func_stddev_ns(g) < 11.19);
	assert_int_equal(g->min_ns, 10);
	assert_int_equal(g->max_ns, 40);
	assert_int_equal(g->periods, 2);
	assert_int_equal(func_period_avg_ns(g), 150);
	assert_int_equal(g->period_min_ns, 100);
	assert_int_equal(g->period_max_ns, 200);
	assert_int_equal(func_stddev_ns(&p->funcs[fn[0]]), 0);

	struct log2_hist h;
	memset(&h, 0, sizeof(h));
	at.funcs = af;
	at.nfuncs = 2;
	at.ns_per_unit = 0.5;
	for (size_t i = 0; i < at.nfuncs; i++)
		aggregate_histogram(&at, &at.funcs[i], &h);
	assert_int_equal(h.n, 4);
	assert_int_equal(h.count[5], 2);
	uint64_t lo, hi;
	log2_hist_bounds_ns(&h, 5, &lo, &hi);	/* 16..31 units */
	assert_int_equal(lo, 8);
	assert_int_equal(hi, 15);
	log2_hist_bounds_ns(&h, 6, &lo, &hi);
	assert_int_equal(lo, 16);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exclude),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_no_signals),
		cmocka_unit_test(test_exclude_counters),
		cmocka_unit_test(test_counters_split),
		cmocka_unit_test(test_function_stats),
	};
	return cmocka_run_group_tests_name("aggregate", tests, NULL, NULL);
}
