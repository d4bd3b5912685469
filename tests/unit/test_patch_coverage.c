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
#include "patch/plan.h"
#include "patch/skip.h"

/* The section (header and payload) of a plan with two objects. */
static uint8_t *coverage_section(size_t *size)
{
	struct patch_plan plan;
	static const uint8_t id[20] = { 1, 2, 3 };

	patch_plan_init(&plan);
	struct patch_coverage *cov = patch_plan_add_object(&plan, "/bin/prog", id, sizeof(id));
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
	uint8_t *sec = malloc(SECTION_HEADER_SIZE + len);
	struct sec_builder b = { sec, sec + SECTION_HEADER_SIZE, 0 };
	sec_put_u32(&b, SECTION_PATCH);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, len);
	memcpy(sec + SECTION_HEADER_SIZE, payload, len);
	free(payload);
	patch_plan_release(&plan);
	*size = SECTION_HEADER_SIZE + len;
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
	/* cut anywhere inside: never read past the end */
	for (size_t cut = SECTION_HEADER_SIZE; cut < size; cut++) {
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damage_refused),
	};
	return cmocka_run_group_tests_name("patch_coverage", tests, NULL, NULL);
}
