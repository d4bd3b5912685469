/*
 * The PATCH section: what the plan's coverage writes (patch/plan.c), the
 * reader gives back (formats/patch_coverage.c), and what a damaged one
 * makes the reader refuse.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/native.h"
#include "formats/patch_coverage.h"
#include "patch/plan.h"
#include "patch/skip.h"

/* The bytes after the objects: the first one's trapped "tiny" (4 + 8 + 4
 * + 4) and the second's count of none (4). */
#define TRAILER 24

/* PAYLOAD as a whole PATCH section; malloc'd. */
static uint8_t *as_section(const uint8_t *payload, size_t len, size_t *size)
{
	uint8_t *sec = malloc(SECTION_HEADER_SIZE + len);
	struct sec_builder b = { sec, sec + SECTION_HEADER_SIZE, 0 };

	sec_put_u32(&b, SECTION_PATCH);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, len);
	memcpy(sec + SECTION_HEADER_SIZE, payload, len);
	*size = SECTION_HEADER_SIZE + len;
	return sec;
}

/* The section (header and payload) of a plan with two objects; the first
 * has a trap site. */
static uint8_t *coverage_section(size_t *size)
{
	struct patch_plan plan;
	static const uint8_t id[20] = { 1, 2, 3 };
	static const uint8_t ret = 0xc3;
	struct patch_reloc r = { .code = { 0xc3 }, .len = 1, .ends = 1 };
	struct patch_site_at trap = { 0x1010, "tiny", PATCH_INT3, 0x1010, 1, &ret, 0, NULL, 0 };

	patch_plan_init(&plan);
	struct patch_coverage *cov = patch_plan_add_object(&plan, "/bin/prog", id, sizeof(id));
	patch_plan_add_site(&plan, &trap, &r, 0);
	cov->found = 10;
	cov->patched = 8;
	cov->fragments = 3;
	patch_coverage_skip(cov, 0x1040, "asm_into", PATCH_SKIP_BRANCH_INTO_WINDOW);
	patch_coverage_skip(cov, 0x1000, NULL, PATCH_SKIP_NOT_CALLED);
	cov = patch_plan_add_object(&plan, "/lib/libz.so.1", NULL, 0);
	cov->found = 2;
	cov->patched = 2;
	size_t len;
	uint8_t *payload = patch_coverage_section(&plan, &len);
	uint8_t *sec = as_section(payload, len, size);
	free(payload);
	patch_plan_release(&plan);
	return sec;
}

static int parse(const uint8_t *bytes, size_t size, struct data_file *df)
{
	char err[256];
	memset(df, 0, sizeof(*df));
	return data_sections_parse(bytes, size, 0, df, err, sizeof(err));
}

static void test_round_trip(void **state)
{
	struct data_file df;
	size_t size;
	uint8_t *sec = coverage_section(&size);

	(void)state;
	assert_int_equal(parse(sec, size, &df), 0);
	assert_true(df.patched);
	assert_int_equal(df.npatch, 2);
	assert_string_equal(df.patch[0].path, "/bin/prog");
	assert_int_equal(df.patch[0].found, 10);
	assert_int_equal(df.patch[0].patched, 8);
	assert_int_equal(df.patch[0].fragments, 3);
	assert_int_equal(df.patch[0].nskipped, 2);
	assert_int_equal(df.patch[0].skipped[0].why, PATCH_SKIP_BRANCH_INTO_WINDOW);
	assert_int_equal(df.patch[0].skipped[0].addr, 0x1040);
	assert_int_equal(df.patch[0].skipped[0].name_len, 8);
	assert_memory_equal(df.patch[0].skipped[0].name, "asm_into", 8);
	assert_int_equal(df.patch[0].skipped[1].name_len, 0);
	assert_int_equal(df.patch[1].nskipped, 0);
	assert_string_equal(df.patch[1].path, "/lib/libz.so.1");
	assert_int_equal(df.patch[0].ntrapped, 1);
	assert_int_equal(df.patch[0].trapped[0].addr, 0x1010);
	assert_memory_equal(df.patch[0].trapped[0].name, "tiny", 4);
	assert_int_equal(df.patch[1].ntrapped, 0);
	data_file_release(&df);
	free(sec);
}

/* A site the runtime refused moves from the patched to the skipped, and
 * is a trap site no more. */
static void test_refused(void **state)
{
	struct patch_plan plan;
	static const uint8_t ret = 0xc3;
	struct patch_reloc r = { .code = { 0xc3 }, .len = 1, .ends = 1 };
	struct patch_site_at trap = { 0x1010, "tiny", PATCH_INT3, 0x1010, 1, &ret, 0, NULL, 0 };

	(void)state;
	patch_plan_init(&plan);
	struct patch_coverage *cov = patch_plan_add_object(&plan, "/bin/prog", NULL, 0);
	cov->found = 1;
	patch_plan_add_site(&plan, &trap, &r, 0);
	assert_int_equal(cov->patched, 1);
	assert_int_equal(cov->ntrapped, 1);
	assert_int_equal(patch_coverage_refuse(&plan, 1, patch_skip_refused(SITE_BYTES_DIFFER)), -1);
	assert_int_equal(patch_coverage_refuse(&plan, 0, patch_skip_refused(SITE_BYTES_DIFFER)), 0);
	assert_int_equal(cov->patched, 0);
	assert_int_equal(cov->ntrapped, 0);
	assert_int_equal(cov->nskipped, 1);
	assert_int_equal(cov->skipped[0].why, patch_skip_refused(SITE_BYTES_DIFFER));
	assert_string_equal(cov->skipped[0].name, "tiny");
	assert_int_equal(cov->skipped[0].addr, 0x1010);
	patch_plan_release(&plan);
}

/* A section cut just before the trapped functions reads as one from a
 * writer without them; cut inside them, it is damaged. */
static void test_without_trailer(void **state)
{
	struct data_file df;
	size_t size;
	uint8_t *sec = coverage_section(&size);
	uint64_t len = size - SECTION_HEADER_SIZE - TRAILER;

	(void)state;
	memcpy(sec + 8, &len, 8);
	assert_int_equal(parse(sec, size - TRAILER, &df), 0);
	assert_int_equal(df.patch[0].ntrapped, 0);
	assert_int_equal(df.patch[0].nskipped, 2);
	data_file_release(&df);
	free(sec);
}

static void test_damage_refused(void **state)
{
	struct data_file df;
	size_t size;
	uint8_t *sec = coverage_section(&size);
	uint8_t *two = malloc(2 * size);

	(void)state;
	/* cut anywhere inside: never read past the end (a cut right before
	 * the trapped functions is test_without_trailer's) */
	for (size_t cut = SECTION_HEADER_SIZE; cut < size; cut++) {
		if (cut == size - TRAILER)
			continue;
		uint8_t *copy = malloc(cut);
		memcpy(copy, sec, cut);
		/* the header still says the whole length: shorten it too */
		uint64_t len = cut - SECTION_HEADER_SIZE;
		memcpy(copy + 8, &len, 8);
		assert_int_equal(parse(copy, cut, &df), -1);
		data_file_release(&df);
		free(copy);
	}
	/* more skipped than found - patched: the first object's found is at
	 * 4 (count) + 4 + 9 ("/bin/prog") */
	uint8_t *bad = malloc(size);
	memcpy(bad, sec, size);
	uint32_t found = 9;
	memcpy(bad + SECTION_HEADER_SIZE + 17, &found, 4);
	assert_int_equal(parse(bad, size, &df), -1);
	data_file_release(&df);
	/* two PATCH sections */
	memcpy(two, sec, size);
	memcpy(two + size, sec, size);
	assert_int_equal(parse(two, 2 * size, &df), -1);
	data_file_release(&df);
	free(bad);
	free(two);
	free(sec);
}

/* A merge's section keeps every input's objects, each scoped to its
 * input's renumbered process images, and merges again as it should; a
 * last image before the first is damage. */
static void test_merged(void **state)
{
	struct data_file in[2], once, twice;
	size_t size, len;
	uint8_t *sec = coverage_section(&size);

	(void)state;
	assert_int_equal(parse(sec, size, &in[0]), 0);
	assert_int_equal(in[0].patch[0].image_first, 0);
	assert_int_equal(in[0].patch[0].image_last, UINT32_MAX);
	assert_true(patch_coverage_covers(&in[0].patch[1], 7));
	memset(&in[1], 0, sizeof(in[1]));	/* a run without --patch */
	uint32_t offsets[2] = { 0, 3 }, max[2] = { 2, 0 };
	uint8_t *payload = patch_coverage_merge(in, 2, offsets, max, &len);
	assert_non_null(payload);
	uint8_t *merged = as_section(payload, len, &size);
	free(payload);
	assert_int_equal(parse(merged, size, &once), 0);
	assert_int_equal(once.npatch, 2);
	assert_string_equal(once.patch[1].path, "/lib/libz.so.1");
	assert_int_equal(once.patch[0].ntrapped, 1);
	assert_memory_equal(once.patch[0].trapped[0].name, "tiny", 4);
	assert_int_equal(once.patch[0].nskipped, 2);
	assert_true(patch_coverage_covers(&once.patch[0], 2));
	assert_false(patch_coverage_covers(&once.patch[1], 3));

	/* the merged file merged again, second, beside the first input */
	struct data_file again[2] = { in[0], once };
	uint32_t offsets2[2] = { 0, 10 }, max2[2] = { 0, 3 };
	payload = patch_coverage_merge(again, 2, offsets2, max2, &len);
	free(merged);
	merged = as_section(payload, len, &size);
	free(payload);
	assert_int_equal(parse(merged, size, &twice), 0);
	assert_int_equal(twice.npatch, 4);
	assert_int_equal(twice.patch[0].image_first, 0);
	assert_int_equal(twice.patch[0].image_last, 0);
	assert_int_equal(twice.patch[3].image_first, 10);
	assert_int_equal(twice.patch[3].image_last, 12);
	data_file_release(&twice);

	/* the last object's last image before its first */
	uint32_t bad = 9;
	memcpy(merged + size - 4, &bad, 4);
	assert_int_equal(parse(merged, size, &twice), -1);
	data_file_release(&twice);
	/* a run merged with none patched writes no section */
	assert_null(patch_coverage_merge(&in[1], 1, offsets, max, &len));
	data_file_release(&once);
	data_file_release(&in[0]);
	free(merged);
	free(sec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damage_refused),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_without_trailer),
		cmocka_unit_test(test_merged),
	};
	return cmocka_run_group_tests_name("patch_coverage", tests, NULL, NULL);
}
