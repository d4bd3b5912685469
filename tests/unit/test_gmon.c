/*
 * The gmon.out reader on files built byte by byte here: the GNU tagged
 * format with repeated records summed, the old BSD and 4.4BSD layouts,
 * big-endian and 32-bit executables, and damaged files (every
 * truncation, a bad tag, overlapping histograms), whose one-line reason
 * must name the offset and the record.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gmon.h"

struct buf {
	uint8_t b[4096];
	size_t n;
	int be;
	int ptr;
};

static void put(struct buf *b, uint64_t v, int size)
{
	for (int i = 0; i < size; i++)
		b->b[b->n++] = (uint8_t)(v >> (b->be ? 8 * (size - 1 - i) : 8 * i));
}

static void put_header(struct buf *b)
{
	memcpy(b->b + b->n, "gmon", 4);
	b->n += 4;
	put(b, 1, 4);
	put(b, 0, 4);
	put(b, 0, 4);
	put(b, 0, 4);
}

static void put_hist(struct buf *b, uint64_t lo, uint64_t hi, uint32_t nbins, const uint16_t *bins)
{
	put(b, GMON_TAG_TIME_HIST, 1);
	put(b, lo, b->ptr);
	put(b, hi, b->ptr);
	put(b, nbins, 4);
	put(b, 100, 4);
	char dimen[15] = "seconds";
	memcpy(b->b + b->n, dimen, 15);
	b->n += 15;
	put(b, 's', 1);
	for (uint32_t i = 0; i < nbins; i++)
		put(b, bins[i], 2);
}

static void put_arc(struct buf *b, uint64_t from, uint64_t self, uint32_t count)
{
	put(b, GMON_TAG_CG_ARC, 1);
	put(b, from, b->ptr);
	put(b, self, b->ptr);
	put(b, count, 4);
}

static int parse(struct gmon *g, const struct buf *b, char *err, size_t errlen)
{
	struct gmon_layout lay = { .big_endian = b->be, .ptr_size = b->ptr };
	gmon_init(g, &lay);
	return gmon_parse(g, "t.out", b->b, b->n, GMON_FORMAT_AUTO, err, errlen);
}

static void test_gnu_records_summed(void **state)
{
	(void)state;
	struct buf b = { .ptr = 8 };
	uint16_t bins[4] = { 1, 2, 65535, 0 };
	struct gmon g;
	char err[256];

	put_header(&b);
	put_hist(&b, 0x1000, 0x1010, 4, bins);
	put_arc(&b, 0x1004, 0x1008, 7);
	put_arc(&b, 0x100c, 0x1000, 1);
	put_hist(&b, 0x1000, 0x1010, 4, bins);	/* same range: summed past 16 bits */
	put_arc(&b, 0x1004, 0x1008, 0xffffffffu);	/* same pair: summed past 32 bits */
	assert_int_equal(parse(&g, &b, err, sizeof(err)), 0);
	assert_int_equal(g.nhists, 1);
	assert_int_equal(g.hists[0].nbins, 4);
	assert_int_equal(g.hists[0].bins[2], 131070);
	assert_int_equal(g.hists[0].bins[1], 4);
	assert_int_equal(g.rate, 100);
	assert_string_equal(g.hists[0].dimen, "seconds");
	assert_int_equal(g.narcs, 2);
	/* first-seen order kept: gprof's call graph depends on it */
	assert_int_equal(g.arcs[0].from_pc, 0x1004);
	assert_int_equal(g.arcs[0].count, 7ull + 0xffffffffull);
	assert_int_equal(g.arcs[1].self_pc, 0x1000);
	assert_int_equal(g.files[0].hist_records, 2);
	assert_int_equal(g.files[0].arc_records, 3);
	gmon_release(&g);
}

static void test_several_files_summed(void **state)
{
	(void)state;
	struct buf b = { .ptr = 8 };
	uint16_t bins[2] = { 40000, 3 };
	struct gmon g;
	char err[256];

	put_header(&b);
	put_hist(&b, 0x2000, 0x2008, 2, bins);
	put_arc(&b, 0x2000, 0x2004, 5);
	assert_int_equal(parse(&g, &b, err, sizeof(err)), 0);
	assert_int_equal(gmon_parse(&g, "u.out", b.b, b.n, GMON_FORMAT_AUTO, err, sizeof(err)), 0);
	assert_int_equal(g.nfiles, 2);
	assert_int_equal(g.hists[0].bins[0], 80000);
	assert_int_equal(g.arcs[0].count, 10);
	gmon_release(&g);
}

static void test_big_endian_32bit(void **state)
{
	(void)state;
	struct buf b = { .ptr = 4, .be = 1 };
	uint16_t bins[2] = { 0x0102, 9 };
	struct gmon g;
	char err[256];

	put_header(&b);
	put_hist(&b, 0x400, 0x408, 2, bins);
	put_arc(&b, 0x401, 0x405, 0x01020304);
	assert_int_equal(parse(&g, &b, err, sizeof(err)), 0);
	assert_int_equal(g.hists[0].low_pc, 0x400);
	assert_int_equal(g.hists[0].bins[0], 0x0102);
	assert_int_equal(g.arcs[0].count, 0x01020304);
	gmon_release(&g);
}

static void test_bsd_layouts(void **state)
{
	(void)state;
	for (int v44 = 0; v44 <= 1; v44++) {
		struct buf b = { .ptr = 8 };
		struct gmon g;
		char err[256];
		size_t hdr = v44 ? 40 : 20;
		put(&b, 0x3000, 8);
		put(&b, 0x3008, 8);
		put(&b, hdr + 4, 4);	/* header and two bins */
		if (v44) {
			put(&b, GMON_BSD44_VERSION, 4);
			put(&b, 250, 4);
			put(&b, 0, 4);
			put(&b, 0, 4);
			put(&b, 0, 4);
		}
		put(&b, 11, 2);
		put(&b, 12, 2);
		put(&b, 0x3002, 8);	/* arcs: u64 count */
		put(&b, 0x3004, 8);
		put(&b, 0x100000000ull, 8);
		assert_int_equal(parse(&g, &b, err, sizeof(err)), 0);
		assert_int_equal(g.files[0].format, v44 ? GMON_FORMAT_BSD44 : GMON_FORMAT_BSD);
		assert_int_equal(g.hists[0].nbins, 2);
		assert_int_equal(g.hists[0].bins[1], 12);
		assert_int_equal(g.rate, v44 ? 250 : 0);
		assert_int_equal(g.arcs[0].count, 0x100000000ull);
		gmon_release(&g);
	}
}

static void test_every_truncation_rejected(void **state)
{
	(void)state;
	struct buf b = { .ptr = 8 };
	uint16_t bins[3] = { 1, 2, 3 };
	char err[256];

	put_header(&b);
	put_hist(&b, 0x1000, 0x100c, 3, bins);
	size_t boundary = b.n;	/* a file may end between records */
	put_arc(&b, 0x1000, 0x1004, 1);
	size_t whole = b.n;
	for (size_t cut = 21; cut < whole; cut++) {
		struct gmon g;
		if (cut == boundary)
			continue;
		b.n = cut;
		assert_int_equal(parse(&g, &b, err, sizeof(err)), -1);
		/* one line naming the record and its offset */
		assert_non_null(strstr(err, "offset"));
		assert_true(strstr(err, "TIME_HIST") || strstr(err, "CG_ARC"));
		assert_null(strchr(err, '\n'));
		gmon_release(&g);
	}
}

static void test_bad_tag_and_version(void **state)
{
	(void)state;
	struct buf b = { .ptr = 8 };
	struct gmon g;
	char err[256];

	put_header(&b);
	put(&b, 9, 1);
	assert_int_equal(parse(&g, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad record tag 9 at offset 20"));
	gmon_release(&g);

	b.n = 0;
	put_header(&b);
	b.b[4] = 7;	/* version 7 */
	assert_int_equal(parse(&g, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "version 7"));
	gmon_release(&g);
}

static void test_overlapping_histograms_rejected(void **state)
{
	(void)state;
	struct buf b = { .ptr = 8 };
	uint16_t bins[4] = { 0 };
	struct gmon g;
	char err[256];

	put_header(&b);
	put_hist(&b, 0x1000, 0x1010, 4, bins);
	size_t second = b.n;
	put_hist(&b, 0x1008, 0x1018, 4, bins);
	assert_int_equal(parse(&g, &b, err, sizeof(err)), -1);
	char want[64];
	snprintf(want, sizeof(want), "TIME_HIST record at offset %zu", second);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "overlaps"));
	gmon_release(&g);

	/* disjoint ranges are fine */
	b.n = 0;
	put_header(&b);
	put_hist(&b, 0x1000, 0x1010, 4, bins);
	put_hist(&b, 0x2000, 0x2010, 4, bins);
	assert_int_equal(parse(&g, &b, err, sizeof(err)), 0);
	assert_int_equal(g.nhists, 2);
	gmon_release(&g);
}

static void test_huge_bin_count_not_allocated(void **state)
{
	(void)state;
	struct buf b = { .ptr = 8 };
	struct gmon g;
	char err[256];

	put_header(&b);
	put(&b, GMON_TAG_TIME_HIST, 1);
	put(&b, 0, 8);
	put(&b, 0xffffffffffull, 8);
	put(&b, 0xfffffff0u, 4);	/* bins announced that the file does not hold */
	put(&b, 100, 4);
	b.n += 16;
	assert_int_equal(parse(&g, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bins announced"));
	gmon_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gnu_records_summed),
		cmocka_unit_test(test_several_files_summed),
		cmocka_unit_test(test_big_endian_32bit),
		cmocka_unit_test(test_bsd_layouts),
		cmocka_unit_test(test_every_truncation_rejected),
		cmocka_unit_test(test_bad_tag_and_version),
		cmocka_unit_test(test_overlapping_histograms_rejected),
		cmocka_unit_test(test_huge_bin_count_not_allocated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
