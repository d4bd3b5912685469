/*
 * MOVED_CODE: the reader gives back what the runtime wrote, refuses a
 * damaged section, and a PC in a moved copy stands for the instruction it
 * was moved from (load/moved_code.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "formats/native.h"
#include "load/moved_code.h"

struct copy {
	uint64_t copy, from, resume;
	uint8_t window, code_len;
};

/* Builds in BUF a MOVED_CODE section of process image (7, 0) with the N
 * copies C; returns its size. */
static size_t section(uint8_t *buf, size_t room, const struct copy *c, uint32_t n)
{
	struct sec_builder b = { buf, buf + room, 0 };
	uint8_t *sec = sec_begin(&b, SECTION_MOVED_CODE);

	sec_put_u32(&b, 7);
	sec_put_u32(&b, 0);
	sec_put_u32(&b, n);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, 0x7000000);	/* the trampolines */
	sec_put_u64(&b, 0x1000);
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t sizes[8] = { c[i].window, c[i].code_len };
		sec_put_u64(&b, c[i].copy);
		sec_put_u64(&b, c[i].from);
		sec_put_u64(&b, c[i].resume);
		sec_put_bytes(&b, sizes, sizeof(sizes));
	}
	sec_end(&b, sec);
	assert_false(b.overflow);
	return (size_t)(b.p - buf);
}

static int parse(const uint8_t *bytes, size_t size, struct data_file *df)
{
	char err[256];

	memset(df, 0, sizeof(*df));
	return data_sections_parse(bytes, size, 0, df, err, sizeof(err));
}

static const struct copy copies[] = {
	/* copied as it was: 6 bytes at 0x1000, back to 0x1006 */
	{ 0x7000030, 0x1000, 0x1006, 6, 6 },
	/* a short branch made long: 5 bytes became 9, back to 0x2005 */
	{ 0x70000b0, 0x2000, 0x2005, 5, 9 },
	/* ends in a return: no jump back */
	{ 0x7000130, 0x3000, 0, 5, 5 },
};

static void test_pc_in_a_copy_is_the_original(void **state)
{
	uint8_t buf[512];
	struct data_file df;
	struct moved_code_map m;
	(void)state;

	assert_int_equal(parse(buf, section(buf, sizeof(buf), copies, 3), &df), 0);
	assert_int_equal(df.nmoved, 3);
	moved_code_map_init(&m, &df, 7, 0);
	assert_int_equal(moved_code_original(&m, 0x7000030), 0x1000);
	assert_int_equal(moved_code_original(&m, 0x7000033), 0x1003);
	assert_int_equal(moved_code_original(&m, 0x7000036), 0x1006);	/* the jump back */
	assert_int_equal(moved_code_original(&m, 0x700003a), 0x1006);
	assert_int_equal(moved_code_original(&m, 0x700003b), 0x700003b);	/* past it */
	assert_int_equal(moved_code_original(&m, 0x70000b4), 0x2000);	/* re-encoded */
	assert_int_equal(moved_code_original(&m, 0x70000b9), 0x2005);
	assert_int_equal(moved_code_original(&m, 0x7000134), 0x3004);
	assert_int_equal(moved_code_original(&m, 0x7000135), 0x7000135);	/* no jump back */
	assert_int_equal(moved_code_original(&m, 0x700002f), 0x700002f);	/* before all */
	/* around the copies, the trampolines' own code */
	assert_false(moved_code_in_trampoline(&m, 0x7000033));
	assert_true(moved_code_in_trampoline(&m, 0x700002f));
	assert_true(moved_code_in_trampoline(&m, 0x7000fff));
	assert_false(moved_code_in_trampoline(&m, 0x7001000));
	moved_code_map_release(&m);
	/* another process's copies are not this one's */
	moved_code_map_init(&m, &df, 8, 0);
	assert_int_equal(moved_code_original(&m, 0x7000033), 0x7000033);
	moved_code_map_release(&m);
	data_file_release(&df);
}

static void test_damaged_sections_are_refused(void **state)
{
	uint8_t buf[512];
	struct data_file df;
	struct copy bad = copies[0];
	(void)state;

	size_t size = section(buf, sizeof(buf), copies, 2);
	buf[SECTION_HEADER_SIZE + 8] = 3;	/* three copies in the room of two */
	assert_int_equal(parse(buf, size, &df), -1);
	data_file_release(&df);
	bad.window = 0;
	assert_int_equal(parse(buf, section(buf, sizeof(buf), &bad, 1), &df), -1);
	data_file_release(&df);
	bad.window = 17;
	assert_int_equal(parse(buf, section(buf, sizeof(buf), &bad, 1), &df), -1);
	data_file_release(&df);
	bad = copies[0];
	bad.copy = 0x7000ffe;	/* its jump back past the trampolines' end */
	assert_int_equal(parse(buf, section(buf, sizeof(buf), &bad, 1), &df), -1);
	data_file_release(&df);
	bad.copy = 0x6000000;
	assert_int_equal(parse(buf, section(buf, sizeof(buf), &bad, 1), &df), -1);
	data_file_release(&df);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pc_in_a_copy_is_the_original),
		cmocka_unit_test(test_damaged_sections_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
