/*
 * The export writers on a hand-built profile: folded stacks, pprof's
 * protobuf (decoded here by a small decoder), the gzip wrapper, gmon.out
 * records (histograms and arcs, counts split over repeated records),
 * callgrind text, Chrome JSON, and the call-path walk they share.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "formats/export.h"
#include "model/cct.h"
#include "model/cct_walk.h"
#include "model/profile.h"

struct fixture {
	struct profile *p;
	struct cct *t;
	uint32_t main_, a, b, lib;
};

/*
 * main (0..1000 us) calls a twice (100..300, 400..500); the first a
 * calls b (150..250); main calls lib_f in a shared library (600..900).
 */
static void fixture_build(struct fixture *fx)
{
	struct thread_info info = { .pid = 7, .tid = 8 };

	fx->p = profile_new();
	fx->t = cct_new(FUNC_NONE);
	fx->main_ = profile_intern_func(fx->p, "main", "/bin/prog", 0x1000, 0x40, NULL, 0);
	fx->a = profile_intern_func(fx->p, "a", "/bin/prog", 0x1040, 0x40, NULL, 0);
	fx->b = profile_intern_func(fx->p, "b", "/bin/prog", 0x1080, 0x10, NULL, 0);
	fx->lib = profile_intern_func(fx->p, "lib_f", "/lib/libx.so", 0x500, 0x20, NULL, 0);
	struct thread_builder *pb = profile_thread_begin(fx->p, &info, 0, 0);
	struct cct_builder *tb = cct_thread_begin(fx->t, 0, 0, 0);
	const struct { int enter; uint32_t fn; uint64_t t; } ev[] = {
		{ 1, fx->main_, 0 }, { 1, fx->a, 100 }, { 1, fx->b, 150 }, { 0, 0, 250 },
		{ 0, 0, 300 }, { 1, fx->a, 400 }, { 0, 0, 500 }, { 1, fx->lib, 600 },
		{ 0, 0, 900 }, { 0, 0, 1000 },
	};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		if (ev[i].enter) {
			profile_enter(pb, ev[i].fn, ev[i].t * 1000);
			cct_enter(tb, ev[i].fn, ev[i].t * 1000);
		} else {
			profile_exit(pb, ev[i].t * 1000, EXIT_RETURN);
			cct_exit(tb, ev[i].t * 1000, EXIT_RETURN);
		}
	}
	profile_thread_end(pb, 1000000);
	cct_thread_end(tb, 1000000);
	profile_find_cycles(fx->p);
}

static void fixture_free(struct fixture *fx)
{
	cct_free(fx->t);
	profile_free(fx->p);
}

static const struct export_object objects[] = {
	{ "/bin/prog", NULL, 0, 0x555500000000ull, 0x555500000000ull, 0x555500002000ull },
	{ "/lib/libx.so", NULL, 0, 0x7f0000000000ull, 0x7f0000000000ull, 0x7f0000001000ull },
};
static const struct export_meta meta = { "prog 1", "/bin/prog", 1700000000000000000ull, objects, 2 };

/* Runs WRITE into memory; returns the bytes (malloc'd) and *LEN. */
#define CAPTURE(buf, len, call)                                   \
	do {                                                      \
		FILE *out_ = open_memstream(&(buf), &(len));      \
		assert_non_null(out_);                            \
		FILE *out = out_;                                 \
		assert_int_equal((call), 0);                      \
		fclose(out_);                                     \
	} while (0)

static int compare_lines(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void test_folded(void **state)
{
	(void)state;
	struct fixture fx;
	char *buf;
	size_t len;

	fixture_build(&fx);
	CAPTURE(buf, len, folded_write(out, fx.p, fx.t, FOLDED_SELF_NS));
	char *lines[8];
	size_t n = 0;
	char *save;
	for (char *s = strtok_r(buf, "\n", &save); s && n < 8; s = strtok_r(NULL, "\n", &save))
		lines[n++] = s;
	qsort(lines, n, sizeof(*lines), compare_lines);
	assert_int_equal(n, 4);
	assert_string_equal(lines[0], "main 400000");
	assert_string_equal(lines[1], "main;a 200000");
	assert_string_equal(lines[2], "main;a;b 100000");
	assert_string_equal(lines[3], "main;lib_f 300000");
	free(buf);

	CAPTURE(buf, len, folded_write(out, fx.p, fx.t, FOLDED_CALLS));
	assert_non_null(strstr(buf, "main;a 2\n"));
	assert_non_null(strstr(buf, "main;a;b 1\n"));
	free(buf);
	fixture_free(&fx);
}

/* The walk visits each node once, a parent before its children. */
struct walk_log {
	char s[64];
};

static void log_pre(void *ctx, const struct cct *t, uint32_t n)
{
	struct walk_log *l = ctx;
	snprintf(l->s + strlen(l->s), sizeof(l->s) - strlen(l->s), "(%u", t->nodes[n].depth);
}

static void log_post(void *ctx, const struct cct *t, uint32_t n)
{
	struct walk_log *l = ctx;
	(void)t;
	(void)n;
	snprintf(l->s + strlen(l->s), sizeof(l->s) - strlen(l->s), ")");
}

static void test_cct_walk(void **state)
{
	(void)state;
	struct fixture fx;
	struct walk_log l = { "" };

	fixture_build(&fx);
	cct_walk(fx.t, log_pre, log_post, &l);
	/* main holds a (holding b) and lib_f, in some order */
	assert_true(!strcmp(l.s, "(1(2(3))(2))") || !strcmp(l.s, "(1(2)(2(3)))"));
	fixture_free(&fx);
}

/* A minimal protobuf reader: varints and length-delimited fields. */
static uint64_t pb_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	for (int shift = 0; *p < end; shift += 7) {
		uint8_t b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* Calls FN for each field of the message [P, END). */
static void pb_fields(const uint8_t *p, const uint8_t *end,
		      void (*fn)(void *ctx, uint32_t field, uint64_t v, const uint8_t *b, size_t n),
		      void *ctx)
{
	while (p < end) {
		uint64_t key = pb_varint(&p, end);
		if ((key & 7) == 0) {
			fn(ctx, (uint32_t)(key >> 3), pb_varint(&p, end), NULL, 0);
		} else {
			assert_int_equal(key & 7, 2);
			uint64_t n = pb_varint(&p, end);
			assert_true(n <= (uint64_t)(end - p));
			fn(ctx, (uint32_t)(key >> 3), 0, p, (size_t)n);
			p += n;
		}
	}
}

struct pprof_seen {
	char strings[32][32];
	size_t nstrings;
	uint64_t func_name[16];	/* by function id */
	uint64_t leaf_time[16];	/* by leaf location id */
	uint64_t leaf_calls[16];
	size_t nsamples;
	/* the sample being read */
	uint64_t first_loc, values[2];
	size_t nvalues;
	uint64_t id, name;
};

static void on_function(void *ctx, uint32_t field, uint64_t v, const uint8_t *b, size_t n)
{
	struct pprof_seen *s = ctx;
	(void)b;
	(void)n;
	if (field == 1)
		s->id = v;
	if (field == 2)
		s->name = v;
}

static void on_sample(void *ctx, uint32_t field, uint64_t v, const uint8_t *b, size_t n)
{
	struct pprof_seen *s = ctx;
	(void)v;
	const uint8_t *p = b;
	if (field == 1)
		s->first_loc = pb_varint(&p, b + n);	/* leaf first */
	if (field == 2)
		while (p < b + n && s->nvalues < 2)
			s->values[s->nvalues++] = pb_varint(&p, b + n);
}

static void on_profile(void *ctx, uint32_t field, uint64_t v, const uint8_t *b, size_t n)
{
	struct pprof_seen *s = ctx;
	(void)v;
	if (field == 6 && s->nstrings < 32) {
		assert_true(n < 32);
		memcpy(s->strings[s->nstrings], b, n);
		s->strings[s->nstrings++][n] = '\0';
	} else if (field == 5) {
		s->id = s->name = 0;
		pb_fields(b, b + n, on_function, s);
		assert_true(s->id < 16);
		s->func_name[s->id] = s->name;
	} else if (field == 2) {
		s->nvalues = 0;
		s->first_loc = 0;
		pb_fields(b, b + n, on_sample, s);
		assert_int_equal(s->nvalues, 2);
		assert_true(s->first_loc < 16);
		s->leaf_calls[s->first_loc] += s->values[0];
		s->leaf_time[s->first_loc] += s->values[1];
		s->nsamples++;
	}
}

static void test_pprof(void **state)
{
	(void)state;
	struct fixture fx;
	struct pprof_seen s;
	size_t len;

	fixture_build(&fx);
	uint8_t *b = pprof_encode(fx.p, fx.t, &meta, &len);
	memset(&s, 0, sizeof(s));
	pb_fields(b, b + len, on_profile, &s);
	assert_string_equal(s.strings[0], "");
	assert_int_equal(s.nsamples, 4);
	for (uint32_t f = 0; f < fx.p->nfuncs; f++) {
		/* location and function ids are the function number + 1 */
		assert_string_equal(s.strings[s.func_name[f + 1]], fx.p->funcs[f].name);
		assert_int_equal(s.leaf_time[f + 1], fx.p->funcs[f].self_ns);
		assert_int_equal(s.leaf_calls[f + 1], fx.p->funcs[f].calls);
	}
	free(b);
	fixture_free(&fx);
}

#pragma weak deflateInit2_
extern int deflateInit2_(void);

/* Without zlib linked the member is stored: check it byte for byte. */
static void test_gzip(void **state)
{
	(void)state;
	static const uint8_t data[] = "a small profile, twice: a small profile";
	char *buf;
	size_t len;

	CAPTURE(buf, len, gzip_write(out, data, sizeof(data)));
	const uint8_t *g = (const uint8_t *)buf;
	assert_true(len >= 18);
	assert_int_equal(g[0], 0x1f);
	assert_int_equal(g[1], 0x8b);
	assert_int_equal(g[2], 8);
	assert_int_equal(g[len - 4], sizeof(data));	/* ISIZE */
	if (!deflateInit2_) {
		assert_int_equal(g[10], 1);		/* final stored block */
		assert_int_equal(g[11] | g[12] << 8, sizeof(data));
		assert_int_equal((g[13] | g[14] << 8) ^ 0xffff, sizeof(data));
		assert_memory_equal(g + 15, data, sizeof(data));
		uint32_t crc = (uint32_t)g[len - 8] | (uint32_t)g[len - 7] << 8 |
			       (uint32_t)g[len - 6] << 16 | (uint32_t)g[len - 5] << 24;
		uint32_t c = 0xffffffffu;
		for (size_t i = 0; i < sizeof(data); i++) {
			c ^= data[i];
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		}
		assert_int_equal(crc, c ^ 0xffffffffu);
	}
	free(buf);
}

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

struct gmon_seen {
	uint64_t hist_lo[64], hist_hi[64], ticks[64];
	size_t nhist;
	size_t hist_records;
	uint64_t arc_from[16], arc_self[16], arc_count[16];
	size_t narcs, arc_records;
};

static void gmon_parse(const uint8_t *b, size_t len, struct gmon_seen *s)
{
	memset(s, 0, sizeof(*s));
	assert_memory_equal(b, "gmon", 4);
	assert_int_equal(rd(b + 4, 4), 1);
	size_t at = 20;
	while (at < len) {
		uint8_t tag = b[at++];
		if (tag == 0) {
			uint64_t lo = rd(b + at, 8), hi = rd(b + at + 8, 8);
			uint32_t nb = (uint32_t)rd(b + at + 16, 4);
			assert_int_equal(rd(b + at + 20, 4), GMON_PROF_RATE);
			assert_string_equal((const char *)b + at + 24, "seconds");
			assert_int_equal(b[at + 39], 's');
			assert_int_equal(hi - lo, 4 * (uint64_t)nb);
			assert_int_equal(lo % 4, 0);
			at += 40;
			size_t k = 0;
			while (k < s->nhist && s->hist_lo[k] != lo)
				k++;
			if (k == s->nhist) {
				s->hist_lo[k] = lo;
				s->hist_hi[k] = hi;
				s->nhist++;
			}
			assert_int_equal(s->hist_hi[k], hi);
			for (uint32_t i = 0; i < nb; i++)
				s->ticks[k] += rd(b + at + 2 * i, 2);
			at += 2 * (size_t)nb;
			s->hist_records++;
		} else {
			assert_int_equal(tag, 1);
			uint64_t from = rd(b + at, 8), self = rd(b + at + 8, 8);
			size_t k = 0;
			while (k < s->narcs && (s->arc_from[k] != from || s->arc_self[k] != self))
				k++;
			if (k == s->narcs) {
				s->arc_from[k] = from;
				s->arc_self[k] = self;
				s->narcs++;
			}
			s->arc_count[k] += rd(b + at + 16, 4);
			at += 20;
			s->arc_records++;
		}
	}
	assert_int_equal(at, len);
}

static uint64_t ticks_at(const struct gmon_seen *s, uint64_t addr)
{
	for (size_t k = 0; k < s->nhist; k++)
		if (s->hist_lo[k] <= addr && addr < s->hist_hi[k])
			return s->ticks[k];
	return UINT64_MAX;
}

static uint64_t count_of(const struct gmon_seen *s, uint64_t from, uint64_t self)
{
	for (size_t k = 0; k < s->narcs; k++)
		if (s->arc_from[k] == from && s->arc_self[k] == self)
			return s->arc_count[k];
	return 0;
}

static void test_gmon(void **state)
{
	(void)state;
	struct fixture fx;
	struct gmon_seen s;
	char *buf;
	size_t len;

	fixture_build(&fx);
	/* Past what one record holds: 200 s of self time in main (2e8 us
	 * over 16 bins of 65535), and 5e9 calls of a from main. */
	fx.p->funcs[fx.main_].self_ns = 200000000000ull;
	for (size_t i = 0; i < fx.p->narcs; i++)
		if (fx.p->arcs[i].caller == fx.main_ && fx.p->arcs[i].callee == fx.a)
			fx.p->arcs[i].count = 5000000000ull;
	CAPTURE(buf, len, gmon_write(out, fx.p, &meta));
	gmon_parse((const uint8_t *)buf, len, &s);
	assert_int_equal(s.nhist, 4);
	assert_int_equal(ticks_at(&s, 0x1000), 200000000);
	assert_int_equal(ticks_at(&s, 0x1040), 200);
	assert_int_equal(ticks_at(&s, 0x1080), 100);
	/* the library's function, at its run-time address */
	assert_int_equal(ticks_at(&s, 0x7f0000000500ull), 300);
	assert_true(s.hist_records >= 200000000 / (16 * 65535));
	assert_int_equal(count_of(&s, 0x1000, 0x1040), 5000000000ull);
	assert_int_equal(count_of(&s, 0x1040, 0x1080), 1);
	assert_int_equal(count_of(&s, 0x1000, 0x7f0000000500ull), 1);
	assert_int_equal(s.narcs, 3);		/* no arc for the spontaneous main */
	assert_int_equal(s.arc_records, 4);	/* 5e9 = 2 records */
	free(buf);
	fixture_free(&fx);
}

static void test_callgrind(void **state)
{
	(void)state;
	struct fixture fx;
	char *buf;
	size_t len;

	fixture_build(&fx);
	CAPTURE(buf, len, callgrind_write(out, fx.p, &meta));
	assert_non_null(strstr(buf, "# callgrind format\n"));
	assert_non_null(strstr(buf, "events: ns\n"));
	assert_non_null(strstr(buf, "summary: 1000000\n"));
	assert_non_null(strstr(buf, "fn=(1) main\n0 400000\n"));
	/* main -> a: 2 calls costing 300 us with what a called */
	assert_non_null(strstr(buf, "cfn=(2) a\ncalls=2 0\n0 300000\n"));
	assert_non_null(strstr(buf, "ob=(2) /lib/libx.so\n"));
	free(buf);
	fixture_free(&fx);
}

static void test_chrome(void **state)
{
	(void)state;
	struct fixture fx;
	char *buf;
	size_t len;

	fixture_build(&fx);
	CAPTURE(buf, len, ({
		struct chrome_writer *w = chrome_writer_new(out, fx.p);
		chrome_process_name(w, 7, "prog \"x\"");
		chrome_thread_begin(w, 7, 8);
		chrome_enter(w, fx.main_, 1000);
		chrome_enter(w, fx.a, 1500);
		chrome_exit(w, 2750, EXIT_RETURN);
		chrome_instant(w, "mark", 2800, "hi", 0);
		chrome_enter(w, fx.a, 3000);
		chrome_thread_end(w, 123456789);
		chrome_writer_finish(w);
	}));
	assert_non_null(strstr(buf, "\"args\":{\"name\":\"prog \\\"x\\\"\"}"));
	assert_non_null(strstr(buf, "{\"name\":\"a\",\"cat\":\"call\",\"ph\":\"X\",\"pid\":7,"
				    "\"tid\":8,\"ts\":1.500,\"dur\":1.250}"));
	assert_non_null(strstr(buf, "\"ph\":\"i\",\"s\":\"t\",\"pid\":7,\"tid\":8,\"ts\":2.800,"
				    "\"args\":{\"text\":\"hi\"}"));
	assert_non_null(strstr(buf, "\"ts\":1.000,\"dur\":123455.789,\"args\":{\"end\":"
				    "\"still running at the end\"}"));
	size_t events = 0;
	for (const char *p = buf; (p = strstr(p, "\"ph\":\"X\"")); p++)
		events++;
	assert_int_equal(events, 3);
	free(buf);
	fixture_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_cct_walk),
		cmocka_unit_test(test_pprof),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_gmon),
		cmocka_unit_test(test_callgrind),
		cmocka_unit_test(test_chrome),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
