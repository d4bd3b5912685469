/* The lengths of VEX- and EVEX-encoded instructions, as GNU as encodes
 * and objdump reads them, whole and cut short, and bytes that are no
 * such instruction. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "x86_length.h"

struct encoding {
	uint8_t code[16];
	size_t len;
	const char *text;
};

static const struct encoding vex[] = {
	{ { 0xc5, 0xf8, 0x77 }, 3, "vzeroupper" },
	{ { 0xc4, 0xe2, 0x71, 0x50, 0xc2 }, 5, "{vex} vpdpbusd %xmm2,%xmm1,%xmm0" },
	{ { 0x62, 0xf2, 0x75, 0x08, 0x50, 0xc2 }, 6, "vpdpbusd %xmm2,%xmm1,%xmm0" },
	{ { 0xc5, 0xf9, 0x70, 0xc1, 0x05 }, 5, "vpshufd $0x5,%xmm1,%xmm0" },
	{ { 0xc4, 0xe3, 0x79, 0x0f, 0xc1, 0x04 }, 6, "vpalignr $0x4,%xmm1,%xmm0,%xmm0" },
	{ { 0x62, 0xf5, 0x74, 0x48, 0x58, 0xc2 }, 6, "vaddph %zmm2,%zmm1,%zmm0" },
	{ { 0x62, 0xf1, 0x7c, 0x48, 0x10, 0x44, 0x24, 0x01 }, 8, "vmovups 0x40(%rsp),%zmm0" },
	{ { 0xc5, 0xfa, 0x6f, 0x05, 0x45, 0x23, 0x01, 0x00 }, 8, "vmovdqu 0x12345(%rip),%xmm0" },
	{ { 0xc5, 0xf5, 0xfe, 0x94, 0x98, 0x00, 0x01, 0x00, 0x00 }, 9,
	  "vpaddd 0x100(%rax,%rbx,4),%ymm1,%ymm2" },
	{ { 0x62, 0xd2, 0x75, 0x28, 0x50, 0x55, 0x00 }, 7, "vpdpbusd 0x0(%r13),%ymm1,%ymm2" },
	{ { 0xc4, 0xe2, 0x7b, 0x4b, 0x04, 0x16 }, 6, "tileloadd (%rsi,%rdx,1),%tmm0" },
	{ { 0x62, 0xf3, 0x75, 0x48, 0x25, 0x55, 0x02, 0x96 }, 8,
	  "vpternlogd $0x96,0x80(%rbp),%zmm1,%zmm2" },
};

static void test_whole(void **state)
{
	(void)state;
	/* followed by more code: the length is the instruction's */
	for (size_t i = 0; i < sizeof(vex) / sizeof(*vex); i++)
		assert_int_equal(x86_vex_length(vex[i].code, sizeof(vex[i].code)), vex[i].len);
}

static void test_cut_short(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(vex) / sizeof(*vex); i++)
		for (size_t n = 0; n < vex[i].len; n++)
			assert_int_equal(x86_vex_length(vex[i].code, n), 0);
}

static void test_not_vex(void **state)
{
	static const uint8_t others[][6] = {
		{ 0x0f, 0x01, 0xe8 },			/* serialize: no VEX */
		{ 0xe8, 0x00, 0x00, 0x00, 0x00 },	/* call rel32 */
		{ 0xc4, 0xe0, 0x71, 0x50, 0xc2 },	/* map 0: reserved */
		{ 0x62, 0xf7, 0x75, 0x08, 0x50, 0xc2 },	/* map 7: not known */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		assert_int_equal(x86_vex_length(others[i], sizeof(others[i])), 0);
}

/* The operand's bytes alone, for the ModRM forms the call test does not
 * reach: a SIB with no base, cut short. */
static void test_modrm(void **state)
{
	static const uint8_t no_base[] = { 0x04, 0x25, 0x00, 0x10, 0x00, 0x00 };	/* (0x1000) */

	(void)state;
	assert_int_equal(x86_modrm_length(no_base, sizeof(no_base)), 6);
	assert_int_equal(x86_modrm_length(no_base, 5), 0);
	assert_int_equal(x86_modrm_length(no_base, 1), 0);
	assert_int_equal(x86_modrm_length((const uint8_t[]){ 0xc0 }, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_not_vex),
		cmocka_unit_test(test_modrm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
