/*
 * The HTML report's building blocks: the call-path tree agrees with the
 * profile model to the nanosecond (self summed per function, totals over
 * outermost paths, counters), the timeline keeps exactly the longest calls,
 * and the encodings (varints, base64, deflate stored blocks) are right.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "report/html_buf.h"
#include "report/html_deflate.h"
#include "report/html_tree.h"

#define EXIT UINT32_MAX

struct event {
	uint32_t func;		/* EXIT, or the function entered */
	uint64_t time;
	uint64_t c1;		/* counter value at the event */
};

/* Replays the same events into a profile and a tree, with hook costs. */
static void replay(struct profile *p, struct html_tree *t, const struct event *ev, size_t n,
		   uint64_t end)
{
	struct thread_info info = { .pid = 1, .tid = 1, .start_ns = 0 };
	struct thread_builder *b = profile_thread_begin(p, &info, 3.5, 2.25);

	html_tree_thread_begin(t, &info, 3.5, 2.25);
	for (size_t i = 0; i < n; i++) {
		uint64_t c[2] = { ev[i].c1, 0 };
		profile_counters(b, c);
		html_tree_counters(t, c);
		if (ev[i].func == EXIT) {
			profile_exit(b, ev[i].time, EXIT_RETURN);
			html_tree_exit(t, ev[i].time, EXIT_RETURN);
		} else {
			profile_enter(b, ev[i].func, ev[i].time);
			html_tree_enter(t, ev[i].func, ev[i].time);
		}
	}
	profile_thread_end(b, end);
	html_tree_thread_end(t, end);
}

/* main -> a -> b -> a -> c (recursion through b), main -> c, one call
 * left open at the end. */
static void tree_matches_profile(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	p->ncounters = 1;
	uint32_t m = profile_intern_func(p, "main", "/p", 0x10, 1, NULL, 0);
	uint32_t a = profile_intern_func(p, "a", "/p", 0x20, 1, NULL, 0);
	uint32_t b = profile_intern_func(p, "b", "/p", 0x30, 1, NULL, 0);
	uint32_t c = profile_intern_func(p, "c", "/p", 0x40, 1, NULL, 0);
	const struct event ev[] = {
		{ m, 100, 0 }, { a, 150, 1 }, { b, 400, 5 }, { a, 520, 9 }, { c, 700, 12 },
		{ EXIT, 900, 20 }, { EXIT, 1000, 22 }, { EXIT, 1300, 30 }, { EXIT, 1700, 31 },
		{ c, 2000, 40 }, { EXIT, 2600, 47 }, { a, 3000, 50 },
	};
	struct html_tree *t = html_tree_new(p, 100);

	replay(p, t, ev, sizeof(ev) / sizeof(ev[0]), 4000);
	html_tree_finish(t);

	uint64_t self[4] = { 0 }, total[4] = { 0 }, calls[4] = { 0 }, cself[4] = { 0 };
	for (size_t i = 1; i < t->nnodes; i++) {
		const struct html_node *n = &t->nodes[i];
		int outermost = 1;
		for (uint32_t up = n->parent; up != HTML_NODE_ROOT; up = t->nodes[up].parent)
			outermost &= t->nodes[up].func != n->func;
		self[n->func] += n->self_ns;
		calls[n->func] += n->calls;
		cself[n->func] += n->counter_self[0];
		if (outermost)
			total[n->func] += n->total_ns;
		/* self plus the children's totals is the total, everywhere */
		uint64_t kids = 0;
		for (uint32_t k = n->first_child; k != UINT32_MAX; k = t->nodes[k].next_sibling)
			kids += t->nodes[k].total_ns;
		assert_int_equal(n->self_ns + kids, n->total_ns);
	}
	for (uint32_t f = 0; f < 4; f++) {
		assert_int_equal(self[f], p->funcs[f].self_ns);
		assert_int_equal(total[f], p->funcs[f].total_ns);
		assert_int_equal(calls[f], p->funcs[f].calls);
		assert_int_equal(cself[f], p->funcs[f].counter_self[0]);
	}
	/* main is the only root: the last calls happen inside it */
	assert_int_equal(t->nodes[HTML_NODE_ROOT].total_ns, p->funcs[m].total_ns);
	/* children heaviest first */
	const struct html_node *main_node = &t->nodes[t->nodes[HTML_NODE_ROOT].first_child];
	assert_int_equal(main_node->func, m);
	uint32_t first = main_node->first_child, second = t->nodes[first].next_sibling;
	assert_true(t->nodes[first].total_ns >= t->nodes[second].total_ns);
	/* every call is on the timeline, sorted by start */
	assert_int_equal(t->ncalls, 7);
	for (size_t i = 1; i < t->ncalls; i++)
		assert_true(t->calls[i - 1].start_ns <= t->calls[i].start_ns);
	html_tree_free(t);
	profile_free(p);
}

/* With room for 3 calls the timeline keeps the 3 longest, and a kept
 * call's callers are kept too. */
static void timeline_keeps_longest(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t f = profile_intern_func(p, "f", "/p", 0x10, 1, NULL, 0);
	uint32_t g = profile_intern_func(p, "g", "/p", 0x20, 1, NULL, 0);
	const struct event ev[] = {
		{ f, 0, 0 }, { g, 10, 0 }, { EXIT, 60, 0 }, { g, 70, 0 }, { EXIT, 75, 0 },
		{ EXIT, 100, 0 }, { g, 200, 0 }, { EXIT, 240, 0 }, { g, 300, 0 }, { EXIT, 301, 0 },
	};
	struct html_tree *t = html_tree_new(p, 3);

	replay(p, t, ev, sizeof(ev) / sizeof(ev[0]), 400);
	html_tree_finish(t);
	assert_int_equal(t->ncalls, 3);
	assert_int_equal(t->min_dur_ns, 40);
	assert_int_equal(t->calls[0].end_ns - t->calls[0].start_ns, 100);
	assert_int_equal(t->threads[0].calls_dropped, 2);
	html_tree_limit_calls(t, 1);
	assert_int_equal(t->ncalls, 1);
	assert_int_equal(t->nodes[t->calls[0].node].func, f);
	html_tree_free(t);
	profile_free(p);
}

static void encodings(void **state)
{
	(void)state;
	struct html_buf b;
	html_buf_init(&b);
	html_buf_uvarint(&b, 0);
	html_buf_uvarint(&b, 127);
	html_buf_uvarint(&b, 300);
	html_buf_svarint(&b, -1);
	html_buf_svarint(&b, 2);
	const uint8_t want[] = { 0, 127, 0xac, 0x02, 1, 4 };
	assert_int_equal(b.len, sizeof(want));
	assert_memory_equal(b.data, want, sizeof(want));
	b.len = 0;
	html_buf_base64(&b, (const uint8_t *)"foob", 4);
	assert_int_equal(b.len, 8);
	assert_memory_equal(b.data, "Zm9vYg==", 8);
	b.len = 0;
	html_buf_escape(&b, "<a href=\"x\">&'</a>");
	html_buf_addch(&b, 0);
	assert_string_equal((char *)b.data, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	html_buf_release(&b);
}

/* Stored blocks: 5-byte headers, 65535 bytes at most each, the last
 * marked final; the same input gives the same bytes when compressed. */
static void deflate_blocks(void **state)
{
	(void)state;
	size_t n = 70000;
	uint8_t *in = malloc(n);
	struct html_buf z, z2;

	for (size_t i = 0; i < n; i++)
		in[i] = (uint8_t)(i * 7);
	html_buf_init(&z);
	assert_int_equal(html_deflate(in, n, 0, &z), 0);
	assert_int_equal(z.len, n + 10);
	assert_int_equal(z.data[0], 0);
	assert_int_equal(z.data[1] | z.data[2] << 8, 65535);
	assert_int_equal((z.data[3] | z.data[4] << 8) ^ 0xffff, 65535);
	assert_int_equal(z.data[5 + 65535], 1);
	assert_memory_equal(z.data + 5, in, 65535);
	z.len = 0;
	html_buf_init(&z2);
	assert_int_equal(html_deflate(in, n, 1, &z), 1);
	assert_int_equal(html_deflate(in, n, 1, &z2), 1);
	assert_true(z.len < n);
	assert_int_equal(z.len, z2.len);
	assert_memory_equal(z.data, z2.data, z.len);
	html_buf_release(&z);
	html_buf_release(&z2);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tree_matches_profile),
		cmocka_unit_test(timeline_keeps_longest),
		cmocka_unit_test(encodings),
		cmocka_unit_test(deflate_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
