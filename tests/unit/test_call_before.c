/* Whether the bytes before an address end in a call: every encoding a
 * compiler gives a call, with the bytes of other code before it, and
 * code that holds an FF /2 or an E8 byte that is not a call ending
 * there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "call_before.h"

/* The CALL_BEFORE_BYTES bytes ending with CODE (LEN bytes), other code's
 * bytes (nops) before it. */
static int ends_in_call(const uint8_t *code, size_t len)
{
	uint8_t before[CALL_BEFORE_BYTES];

	memset(before, 0x90, sizeof(before));
	memcpy(before + sizeof(before) - len, code, len);
	return code_ends_in_call(before);
}

static void test_calls(void **state)
{
	static const struct {
		uint8_t code[CALL_BEFORE_BYTES];
		size_t len;
	} calls[] = {
		{ { 0xe8, 0x10, 0x20, 0x30, 0x40 }, 5 },	/* call rel32 */
		{ { 0xff, 0xd0 }, 2 },				/* call *%rax */
		{ { 0x41, 0xff, 0xd3 }, 3 },			/* call *%r11 */
		{ { 0xff, 0x10 }, 2 },				/* call *(%rax) */
		{ { 0xff, 0x50, 0x18 }, 3 },			/* call *0x18(%rax) */
		{ { 0xff, 0x14, 0xc5, 0x00, 0x10, 0x40, 0x00 }, 7 },	/* call *0x401000(,%rax,8) */
		{ { 0xff, 0x54, 0x24, 0x08 }, 4 },		/* call *0x8(%rsp) */
		{ { 0xff, 0x94, 0x24, 0x00, 0x01, 0x00, 0x00 }, 7 },	/* call *0x100(%rsp) */
		{ { 0xff, 0x90, 0x00, 0x01, 0x00, 0x00 }, 6 },	/* call *0x100(%rax) */
		{ { 0xff, 0x15, 0x00, 0x10, 0x00, 0x00 }, 6 },	/* call *0x1000(%rip) */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(calls) / sizeof(*calls); i++)
		assert_true(ends_in_call(calls[i].code, calls[i].len));
}

static void test_not_calls(void **state)
{
	static const struct {
		uint8_t code[CALL_BEFORE_BYTES];
		size_t len;
	} others[] = {
		{ { 0x31, 0xc0 }, 2 },				/* xor %eax,%eax */
		{ { 0xff, 0xe0 }, 2 },				/* jmp *%rax: FF /4 */
		{ { 0xff, 0x50 }, 2 },				/* FF /2 whose disp8 is missing */
		{ { 0xff, 0x15, 0x00, 0x10 }, 4 },		/* a RIP-relative call cut short */
		{ { 0xe8, 0x10, 0x20, 0x30 }, 4 },		/* rel32 cut short */
		{ { 0xff, 0xd0, 0x90 }, 3 },			/* a call, then a nop */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		assert_false(ends_in_call(others[i].code, others[i].len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_not_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
