/*
 * The CodeScape .prf reader and writer: a file built by hand whose every
 * field is checked at the offset the layout gives it (docs/prf.md), the
 * round trip write -> read -> write (little- and big-endian), damaged
 * files refused with the offset named, and the conversions to and from
 * the profile model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "formats/prf.h"
#include "model/cct.h"
#include "model/profile.h"

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t be(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void set_func(struct prf_func *f, const char *name, const char *label, const char *q,
		     uint64_t hits, uint64_t c1, uint64_t c1_self)
{
	memset(f, 0, sizeof(*f));
	f->description = PRF_DESC_FUNCTION;
	f->attributes = PRF_ATTR_TAGGED;
	f->cache_line = 0x0102;
	f->min_pc = 0x00401000;
	f->max_pc = 0x004010ff;
	f->overlay_area = 3;
	f->overlay_id = 4;
	f->group_id = PRF_GROUP_NONE;
	for (int i = 0; i < 8; i++)
		f->spare[i] = (uint8_t)(0xC0 + i);
	f->hits = hits;
	f->c1 = c1;
	f->c1_self = c1_self;
	f->c2 = 0x0000000200000001ull;
	f->c2_self = 0x0000000400000003ull;
	prf_name_set(&f->name, name);
	prf_name_set(&f->label, label);
	prf_name_set(&f->qualified, q);
}

/* A trace profile: one overlay, one function, main calling leaf. */
static void build(struct prf_file *f, int big_endian)
{
	memset(f, 0, sizeof(*f));
	f->big_endian = big_endian;
	f->h.version = PRF_VERSION;
	f->h.spare1[0] = 0xA1;
	f->h.spare1[1] = 0xA2;
	f->h.icache = 1;
	f->h.day = 2;
	f->h.month = 3;
	f->h.year = 24;
	f->h.hour = 5;
	f->h.minute = 6;
	f->h.second = 7;
	f->h.type = PRF_TRACE;
	f->h.hits = 0x1122334455667788ull;
	f->h.c1 = 0x0102030405060708ull;
	f->h.c1_self = 0x1112131415161718ull;
	f->h.c2 = 0x2122232425262728ull;
	f->h.c2_self = 0x3132333435363738ull;
	f->h.counter1 = PRF_COUNTER_ELAPSED;
	f->h.counter2 = PRF_COUNTER_INSN_EXEC;
	for (int i = 0; i < 8; i++)
		f->h.spare2[i] = (uint8_t)(0xB0 + i);
	f->overlays = calloc(1, sizeof(*f->overlays));
	f->noverlays = 1;
	f->overlays[0] = (struct prf_overlay){ 0x01020304, 0x1000, 0x2000, 7 };
	f->funcs = calloc(1, sizeof(*f->funcs));
	f->nfuncs = 1;
	set_func(&f->funcs[0], "main", "_main", "prog.c:main", 10, 1000, 600);
	f->trace = calloc(4, sizeof(*f->trace));
	f->ntrace = f->trace_alloc = 4;
	f->trace[0].is_call = 1;
	f->trace[0].call_number = 1;
	set_func(&f->trace[0].f, "main", "_main", "prog.c:main", 1, 1000, 600);
	f->trace[1].is_call = 1;
	f->trace[1].call_number = 2;
	set_func(&f->trace[1].f, "leaf", "_leaf", "prog.c:leaf", 9, 400, 400);
	f->trace[2].call_number = 2;
	f->trace[3].call_number = 1;
}

/* Checks a function record's body at P (its L at P). */
static void check_func_at(const uint8_t *p, size_t shift, const char *name, const char *label,
			  const char *q, uint64_t hits, uint64_t c1, uint64_t c1_self)
{
	size_t n1 = strlen(name), n2 = strlen(label), n3 = strlen(q);
	const uint8_t *b = p + shift;	/* the body's fields move by SHIFT in a call record */

	assert_int_equal(le(p, 4), 79 + shift + n1 + n2 + n3);
	assert_int_equal(b[4], PRF_DESC_FUNCTION);
	assert_int_equal(le(b + 5, 2), PRF_ATTR_TAGGED);
	assert_int_equal(le(b + 7, 2), 0x0102);
	assert_int_equal(le(b + 9, 4), 0x00401000);
	assert_int_equal(le(b + 13, 4), 0x004010ff);
	assert_int_equal(le(b + 17, 4), 3);
	assert_int_equal(le(b + 21, 4), 4);
	assert_int_equal(le(b + 25, 4), 0xFFFFFFFFu);
	for (int i = 0; i < 8; i++)
		assert_int_equal(b[29 + i], 0xC0 + i);
	assert_int_equal(le(b + 37, 8), hits);
	assert_int_equal(le(b + 45, 8), c1);
	assert_int_equal(le(b + 53, 8), c1_self);
	assert_int_equal(le(b + 61, 8), 0x0000000200000001ull);
	assert_int_equal(le(b + 69, 8), 0x0000000400000003ull);
	assert_int_equal(le(b + 77, 2), n1);
	assert_memory_equal(b + 79, name, n1);
	assert_int_equal(le(b + 79 + n1, 2), n2);
	assert_memory_equal(b + 81 + n1, label, n2);
	assert_int_equal(le(b + 81 + n1 + n2, 2), n3);
	assert_memory_equal(b + 83 + n1 + n2, q, n3);
}

static void test_every_field_at_its_offset(void **state)
{
	(void)state;
	struct prf_file f;
	size_t len;

	build(&f, 0);
	uint8_t *b = prf_encode(&f, &len);
	const uint8_t *h = b + 14;	/* the header; offsets as the guide counts them */

	assert_memory_equal(b, "PROFILER FILE:", 14);
	assert_int_equal(le(h, 4), 85);
	assert_int_equal(h[4], PRF_VERSION);
	assert_int_equal(h[5], 0xA1);
	assert_int_equal(h[6], 0xA2);
	assert_int_equal(h[7], 1);
	assert_int_equal(h[8], 2);
	assert_int_equal(h[9], 3);
	assert_int_equal(h[10], 24);
	assert_int_equal(h[11], 5);
	assert_int_equal(h[12], 6);
	assert_int_equal(h[13], 7);
	assert_int_equal(h[14], PRF_TRACE);
	assert_int_equal(le(h + 15, 8), 0x1122334455667788ull);
	assert_int_equal(le(h + 23, 8), 0x0102030405060708ull);
	assert_int_equal(le(h + 31, 8), 0x1112131415161718ull);
	assert_int_equal(le(h + 39, 8), 0x2122232425262728ull);
	assert_int_equal(le(h + 47, 8), 0x3132333435363738ull);
	assert_int_equal(h[55], 0x23);
	assert_int_equal(h[56], 0x13);
	assert_int_equal(le(h + 57, 4), 1);	/* overlays */
	assert_int_equal(le(h + 61, 4), 1);	/* functions */
	assert_int_equal(le(h + 65, 4), 2);	/* function calls */
	assert_int_equal(le(h + 69, 4), 0);	/* overlay info: right after the header */
	assert_int_equal(le(h + 73, 4), 20);	/* function info: after one overlay */
	size_t func_len = 4 + 79 + 4 + 5 + 11;
	assert_int_equal(le(h + 77, 4), 20 + func_len);	/* trace info */
	for (int i = 0; i < 8; i++)
		assert_int_equal(h[81 + i], 0xB0 + i);

	const uint8_t *o = h + 89;	/* regions: offsets from the header's end */
	assert_int_equal(le(o, 4), 16);
	assert_int_equal(le(o + 4, 4), 0x01020304);
	assert_int_equal(le(o + 8, 4), 0x1000);
	assert_int_equal(le(o + 12, 4), 0x2000);
	assert_int_equal(le(o + 16, 4), 7);

	const uint8_t *fr = o + 20;
	check_func_at(fr, 0, "main", "_main", "prog.c:main", 10, 1000, 600);

	const uint8_t *t = fr + func_len;
	assert_int_equal(t[4], 0xFF);
	assert_int_equal(le(t + 5, 4), 1);
	check_func_at(t, 5, "main", "_main", "prog.c:main", 1, 1000, 600);
	t += 4 + 84 + 4 + 5 + 11;
	assert_int_equal(t[4], 0xFF);
	assert_int_equal(le(t + 5, 4), 2);
	check_func_at(t, 5, "leaf", "_leaf", "prog.c:leaf", 9, 400, 400);
	t += 4 + 84 + 4 + 5 + 11;
	assert_int_equal(le(t, 4), 5);
	assert_int_equal(t[4], 0x00);
	assert_int_equal(le(t + 5, 4), 2);
	t += 9;
	assert_int_equal(le(t, 4), 5);
	assert_int_equal(t[4], 0x00);
	assert_int_equal(le(t + 5, 4), 1);
	t += 9;
	assert_ptr_equal(t, b + len);
	free(b);
	prf_file_release(&f);
}

static void round_trip(int big_endian)
{
	struct prf_file f, g;
	size_t len, len2;
	char err[256];

	build(&f, big_endian);
	uint8_t *b = prf_encode(&f, &len);
	assert_int_equal(prf_parse(b, len, &g, err, sizeof(err)), 0);
	assert_int_equal(g.big_endian, big_endian);
	assert_int_equal(g.nfuncs, 1);
	assert_int_equal(g.ntrace, 4);
	assert_string_equal(g.trace[1].f.name.s, "leaf");
	assert_int_equal(g.h.c2_self, 0x3132333435363738ull);
	uint8_t *b2 = prf_encode(&g, &len2);
	assert_int_equal(len, len2);
	assert_memory_equal(b, b2, len);
	free(b);
	free(b2);
	prf_file_release(&f);
	prf_file_release(&g);
}

static void test_round_trip(void **state)
{
	(void)state;
	round_trip(0);
}

static void test_round_trip_big_endian(void **state)
{
	(void)state;
	round_trip(1);
	struct prf_file f;
	size_t len;
	build(&f, 1);
	uint8_t *b = prf_encode(&f, &len);
	assert_int_equal(be(b + 14, 4), 85);
	assert_int_equal(be(b + 14 + 15, 8), 0x1122334455667788ull);
	free(b);
	prf_file_release(&f);
}

/* Every truncation is refused with a message, never a crash. */
static void test_truncated(void **state)
{
	(void)state;
	struct prf_file f, g;
	size_t len;
	char err[256];

	build(&f, 0);
	uint8_t *b = prf_encode(&f, &len);
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		memcpy(copy, b, n);
		err[0] = '\0';
		assert_int_equal(prf_parse(copy, n, &g, err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
		if (n > 18)
			assert_non_null(strstr(err, "offset "));
		prf_file_release(&g);
		free(copy);
	}
	free(b);
	prf_file_release(&f);
}

static void test_damaged(void **state)
{
	(void)state;
	struct prf_file f, g;
	size_t len;
	char err[256];

	build(&f, 0);
	f.trace[2].call_number = 1;	/* returns from the outer call first */
	uint8_t *b = prf_encode(&f, &len);
	assert_int_equal(prf_parse(b, len, &g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "trace record 2"));
	assert_non_null(strstr(err, "innermost"));
	prf_file_release(&g);
	free(b);

	f.trace[2].call_number = 2;
	b = prf_encode(&f, &len);
	b[14 + 14] = 9;			/* type */
	assert_int_equal(prf_parse(b, len, &g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown profile type 9"));
	prf_file_release(&g);
	b[14 + 14] = PRF_TRACE;
	b[14 + 61] = 0xff;		/* 255 functions cannot fit */
	assert_int_equal(prf_parse(b, len, &g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot fit"));
	prf_file_release(&g);
	free(b);
	prf_file_release(&f);
}

static void test_statistical(void **state)
{
	(void)state;
	struct prf_file f;
	struct profile *p;
	size_t len;
	char err[256];

	build(&f, 0);
	f.h.type = PRF_STATISTICAL;	/* the trace records are not written */
	uint8_t *b = prf_encode(&f, &len);
	assert_int_equal(le(b + 14 + 65, 4), 0);
	assert_int_equal(le(b + 14 + 77, 4), 0);
	assert_int_equal(prf_to_profile(b, len, &p, err, sizeof(err)), 0);
	assert_int_equal(p->nfuncs, 1);
	assert_string_equal(p->funcs[0].name, "main");
	assert_int_equal(p->funcs[0].self_ns, 10);	/* the hits */
	assert_int_equal(p->funcs[0].calls, 0);
	profile_free(p);
	free(b);
	prf_file_release(&f);
}

/* A profile written as .prf and read back keeps its numbers and arcs. */
static void test_profile_round_trip(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	struct cct *t = cct_new(FUNC_NONE);
	uint32_t m = profile_intern_func(p, "main", "/bin/prog", 0x1000, 0x40, NULL, 0);
	uint32_t a = profile_intern_func(p, "a", "/bin/prog", 0x1040, 0x20, NULL, 0);
	uint32_t r = profile_intern_func(p, "rec", "/lib/x.so", 0x2000, 0x10, NULL, 0);
	struct thread_info info = { .pid = 1, .tid = 1 };
	struct thread_builder *pb = profile_thread_begin(p, &info, 0, 0);
	struct cct_builder *tb = cct_thread_begin(t, 0, 0, 0);
	static const struct { int enter; uint32_t *fn; uint64_t t; } ev[] = {
		{ 1, NULL, 0 }, { 1, NULL, 10 }, { 0, NULL, 40 }, { 1, NULL, 50 }, { 1, NULL, 55 },
		{ 1, NULL, 60 }, { 0, NULL, 62 }, { 0, NULL, 70 }, { 0, NULL, 80 }, { 0, NULL, 100 },
	};
	uint32_t order[] = { m, a, 0, r, a, r, 0, 0, 0, 0 };
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		if (ev[i].enter) {
			profile_enter(pb, order[i], ev[i].t);
			cct_enter(tb, order[i], ev[i].t);
		} else {
			profile_exit(pb, ev[i].t, EXIT_RETURN);
			cct_exit(tb, ev[i].t, EXIT_RETURN);
		}
	}
	profile_thread_end(pb, 100);
	cct_thread_end(tb, 100);

	struct prf_file f;
	size_t len;
	char err[256];
	struct profile *q;
	struct cct *qt;
	prf_from_profile(p, t, 0, &f);
	uint8_t *b = prf_encode(&f, &len);
	assert_int_equal(prf_to_profile_tree(b, len, &q, &qt, err, sizeof(err)), 0);
	/* the tree comes back path for path */
	assert_int_equal(qt->nnodes, t->nnodes);
	assert_int_equal(qt->calls, t->calls);
	assert_int_equal(qt->nodes[CCT_ROOT].total[CCT_TIME], t->nodes[CCT_ROOT].total[CCT_TIME]);
	for (size_t i = 1; i < t->nnodes; i++) {
		const struct cct_node *x = &t->nodes[i];
		int found = 0;
		for (size_t k = 1; k < qt->nnodes; k++) {
			const struct cct_node *y = &qt->nodes[k];
			if (y->depth != x->depth || y->calls != x->calls ||
			    y->self[CCT_TIME] != x->self[CCT_TIME] ||
			    y->total[CCT_TIME] != x->total[CCT_TIME] ||
			    strcmp(q->funcs[y->func].name, p->funcs[x->func].name))
				continue;
			found = 1;
		}
		assert_true(found);
	}
	cct_free(qt);
	assert_int_equal(q->nfuncs, p->nfuncs);
	assert_int_equal(q->calls, p->calls);
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *x = &p->funcs[i], *y = NULL;
		for (size_t k = 0; k < q->nfuncs; k++)
			if (!strcmp(q->funcs[k].name, x->name))
				y = &q->funcs[k];
		assert_non_null(y);
		assert_string_equal(y->object, x->object);
		assert_int_equal(y->calls, x->calls);
		assert_int_equal(y->self_ns, x->self_ns);
		assert_int_equal(y->total_ns, x->total_ns);
	}
	assert_int_equal(q->narcs, p->narcs);
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *x = &p->arcs[i];
		const char *cn = x->caller == FUNC_NONE ? "" : p->funcs[x->caller].name;
		int found = 0;
		for (size_t k = 0; k < q->narcs; k++) {
			const struct arc *y = &q->arcs[k];
			const char *qn = y->caller == FUNC_NONE ? "" : q->funcs[y->caller].name;
			if (strcmp(cn, qn) || strcmp(p->funcs[x->callee].name, q->funcs[y->callee].name))
				continue;
			found = 1;
			assert_int_equal(y->count, x->count);
			assert_int_equal(y->self_ns, x->self_ns);
			assert_int_equal(y->child_ns, x->child_ns);
		}
		assert_true(found);
	}
	profile_free(q);
	free(b);
	prf_file_release(&f);
	cct_free(t);
	profile_free(p);
}

/* Returns the function named NAME in P (it must be there). */
static const struct func *func_named(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return &p->funcs[i];
	fail_msg("no function '%s'", name);
	return NULL;
}

/*
 * record -e counters: the first one the guide has an id for is written as
 * counter 2 (instructions -> 0x13) in the header, the function records and
 * the trace records, and reads back as the profile's counter; one the
 * guide lacks (page-faults) is left out.
 */
static void test_counters(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	struct cct *t = cct_new(FUNC_NONE);
	p->ncounters = 2;
	p->counter_names[0] = strdup("page-faults");
	p->counter_names[1] = strdup("instructions");
	t->metrics |= 1u << CCT_C1 | 1u << CCT_C2;
	uint32_t m = profile_intern_func(p, "main", "/bin/prog", 0x1000, 0x40, NULL, 0);
	uint32_t l = profile_intern_func(p, "leaf", "/bin/prog", 0x1040, 0x20, NULL, 0);
	struct thread_info info = { .pid = 1, .tid = 1 };
	struct thread_builder *pb = profile_thread_begin(p, &info, 0, 0);
	struct cct_builder *tb = cct_thread_begin(t, 0, 0, 0);
	/* time, page faults, instructions: main runs 100 instructions, leaf
	 * 250 inside it, main 50 more */
	static const uint64_t v[4][CCT_NMETRICS] = { { 0, 0, 1000 }, { 10, 1, 1100 }, { 20, 1, 1350 },
					  { 30, 2, 1400 } };
	for (int i = 0; i < 4; i++) {
		uint64_t c[2] = { v[i][1], v[i][2] };
		profile_counters(pb, c);
		if (i < 2) {
			profile_enter(pb, i ? l : m, v[i][0]);
			cct_enter_values(tb, i ? l : m, v[i]);
		} else {
			profile_exit(pb, v[i][0], EXIT_RETURN);
			cct_exit_values(tb, v[i], EXIT_RETURN);
		}
	}
	profile_thread_end(pb, 30);
	cct_thread_end_values(tb, v[3]);
	assert_int_equal(func_named(p, "main")->counter_total[1], 400);

	struct prf_file f;
	size_t len;
	prf_from_profile(p, t, 0, &f);
	uint8_t *b = prf_encode(&f, &len);
	const uint8_t *h = b + 14;
	assert_int_equal(h[55], PRF_COUNTER_ELAPSED);
	assert_int_equal(h[56], PRF_COUNTER_INSN_EXEC);
	assert_int_equal(le(h + 39, 8), 400);	/* C2 */
	assert_int_equal(le(h + 47, 8), 400);	/* C2 minus children: all of it */
	const uint8_t *fr = h + 89;		/* no overlays: main's record first */
	assert_int_equal(le(fr + 77, 2), 4);
	assert_memory_equal(fr + 79, "main", 4);
	assert_int_equal(le(fr + 61, 8), 400);
	assert_int_equal(le(fr + 69, 8), 150);
	/* main's call record: C2 at 66, C2 minus children at 74 */
	const uint8_t *tr = h + 89 + le(h + 77, 4);
	assert_int_equal(tr[4], 0xFF);
	assert_int_equal(le(tr + 66, 8), 400);
	assert_int_equal(le(tr + 74, 8), 150);

	struct profile *q;
	struct cct *qt;
	char err[256];
	assert_int_equal(prf_to_profile_tree(b, len, &q, &qt, err, sizeof(err)), 0);
	assert_int_equal(q->ncounters, 1);
	assert_string_equal(q->counter_names[0], "instructions");
	assert_int_equal(func_named(q, "main")->counter_total[0], 400);
	assert_int_equal(func_named(q, "main")->counter_self[0], 150);
	assert_int_equal(func_named(q, "leaf")->counter_self[0], 250);
	assert_true(cct_has_metric(qt, CCT_C1));
	assert_int_equal(qt->nodes[CCT_ROOT].total[CCT_C1], 400);

	/* and the file it gives back is the same file */
	struct prf_file g;
	size_t len2;
	prf_from_profile(q, qt, 0, &g);
	uint8_t *b2 = prf_encode(&g, &len2);
	assert_int_equal(len2, len);
	assert_memory_equal(b2, b, len);

	free(b2);
	prf_file_release(&g);
	cct_free(qt);
	profile_free(q);
	free(b);
	prf_file_release(&f);
	cct_free(t);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field_at_its_offset),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_big_endian),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_statistical),
		cmocka_unit_test(test_profile_round_trip),
		cmocka_unit_test(test_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
