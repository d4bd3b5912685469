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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exclude),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_no_signals),
	};
	return cmocka_run_group_tests_name("aggregate", tests, NULL, NULL);
}
