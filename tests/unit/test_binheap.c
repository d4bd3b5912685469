/*
 * The binary heap the link-order algorithms take their merges from: items
 * come out best first whatever order they went in, ties included; and
 * dropping the stale items leaves a heap that still does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "binheap.h"

/* A merge's shape: a gain to rank by, a key to break ties and tell items apart. */
struct entry {
	double gain;
	uint32_t key, alive;
};

static int before(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;

	return a->gain != b->gain ? a->gain > b->gain : a->key < b->key;
}

static uint64_t seed = 12345;

static uint32_t draw(uint32_t below)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(seed >> 33) % below;
}

static void test_pops_best_first(void **state)
{
	struct binheap h;
	struct entry e, last;
	size_t popped = 0;

	(void)state;
	binheap_init(&h, sizeof(struct entry), before);
	assert_int_equal(binheap_pop(&h, &e), 0);
	for (uint32_t i = 0; i < 2000; i++)	/* few gains: many ties */
		binheap_push(&h, &(struct entry){ (double)draw(50), i, 1 });
	while (binheap_pop(&h, &e)) {
		if (popped)
			assert_true(before(&last, &e));
		last = e;
		popped++;
	}
	assert_int_equal(popped, 2000);
	binheap_release(&h);
}

static int is_alive(const void *item, void *ctx)
{
	(void)ctx;
	return ((const struct entry *)item)->alive;
}

static void test_filter_keeps_the_live(void **state)
{
	struct binheap h;
	struct entry e, last;
	size_t popped = 0, alive = 0;

	(void)state;
	binheap_init(&h, sizeof(struct entry), before);
	for (uint32_t i = 0; i < 3000; i++) {
		uint32_t live = draw(3) == 0;
		alive += live;
		binheap_push(&h, &(struct entry){ (double)draw(100), i, live });
		if (i == 1500)	/* pops between pushes leave a heap of another shape */
			for (int k = 0; k < 200; k++) {
				assert_true(binheap_pop(&h, &e));
				alive -= e.alive;
			}
	}
	binheap_filter(&h, is_alive, NULL);
	assert_int_equal(h.n, alive);
	while (binheap_pop(&h, &e)) {
		assert_true(e.alive);
		if (popped)
			assert_true(before(&last, &e));
		last = e;
		popped++;
	}
	assert_int_equal(popped, alive);
	binheap_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pops_best_first),
		cmocka_unit_test(test_filter_keeps_the_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
