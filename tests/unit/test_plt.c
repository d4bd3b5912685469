/*
 * symbols/plt.c: which bytes are a PLT stub and which GOT slot it jumps
 * through, for every stub shape the x86-64 linkers write; anything else
 * (the lazy resolver's header, IBT's lazy entries, a truncated entry) is
 * no stub.  And which stub holds an address: the entry's bytes, no more.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "symbols/plt.h"

/* jmp *0x2fca(%rip): the jump's end + 0x2fca */
#define JMP_GOT 0xff, 0x25, 0xca, 0x2f, 0x00, 0x00

static void test_decodes_each_stub_shape(void **state)
{
	(void)state;
	/* lazy .plt entry and 8-byte .plt.got entry: the jmp first */
	const uint8_t lazy[16] = { JMP_GOT, 0x68, 0, 0, 0, 0, 0xe9, 0xe0, 0xff, 0xff, 0xff };
	const uint8_t got8[8] = { JMP_GOT, 0x66, 0x90 };
	/* .plt.sec and IBT's .plt.got: endbr64, then the jmp */
	const uint8_t sec[16] = { 0xf3, 0x0f, 0x1e, 0xfa, JMP_GOT, 0x66, 0x0f, 0x1f, 0x44, 0, 0 };
	/* GNU ld's IBT stubs of older releases and -z bndplt: bnd jmp */
	const uint8_t bnd[16] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xf2, JMP_GOT, 0x0f, 0x1f, 0x44, 0, 0 };
	uint64_t slot = 0;

	assert_int_equal(plt_stub_slot(lazy, sizeof(lazy), 0x1030, &slot), 0);
	assert_int_equal(slot, 0x1030 + 6 + 0x2fca);
	assert_int_equal(plt_stub_slot(got8, sizeof(got8), 0x1070, &slot), 0);
	assert_int_equal(slot, 0x1070 + 6 + 0x2fca);
	assert_int_equal(plt_stub_slot(sec, sizeof(sec), 0x1080, &slot), 0);
	assert_int_equal(slot, 0x1080 + 10 + 0x2fca);
	assert_int_equal(plt_stub_slot(bnd, sizeof(bnd), 0x1090, &slot), 0);
	assert_int_equal(slot, 0x1090 + 11 + 0x2fca);

	/* a negative displacement reaches below the stub */
	const uint8_t back[8] = { 0xff, 0x25, 0xf0, 0xff, 0xff, 0xff };
	assert_int_equal(plt_stub_slot(back, sizeof(back), 0x1000, &slot), 0);
	assert_int_equal(slot, 0x1000 + 6 - 0x10);
}

static void test_other_bytes_are_no_stub(void **state)
{
	(void)state;
	uint64_t slot = 0;
	/* PLT0: push GOT+8(%rip); jmp *GOT+16(%rip) */
	const uint8_t plt0[16] = { 0xff, 0x35, 1, 0, 0, 0, JMP_GOT, 0x0f, 0x1f, 0x40, 0 };
	/* IBT's lazy .plt entry: endbr64; push $0; jmp PLT0 */
	const uint8_t ibt_lazy[16] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x68, 0, 0, 0, 0, 0xe9, 0xe2, 0xff,
				       0xff, 0xff, 0x66, 0x90 };
	/* the jmp cut short by the entry's end */
	const uint8_t cut[8] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xff, 0x25, 0, 0 };

	assert_int_equal(plt_stub_slot(plt0, sizeof(plt0), 0x1020, &slot), -1);
	assert_int_equal(plt_stub_slot(ibt_lazy, sizeof(ibt_lazy), 0x1030, &slot), -1);
	assert_int_equal(plt_stub_slot(cut, sizeof(cut), 0x1070, &slot), -1);
	assert_int_equal(plt_stub_slot(cut, 4, 0x1070, &slot), -1);
	assert_int_equal(plt_stub_slot(cut, 0, 0x1070, &slot), -1);
	assert_int_equal(slot, 0);
}

static void test_lookup_covers_the_entry_alone(void **state)
{
	(void)state;
	struct plt_symbol stubs[] = {
		{ 0x1030, 16, (char *)"abs@plt" },
		{ 0x1040, 16, (char *)"strlen@plt" },
		{ 0x1070, 8, (char *)"__cxa_finalize@plt" },
	};
	struct plt_symbols t = { stubs, 3 };

	assert_null(plt_symbols_lookup(&t, 0x102f));
	assert_string_equal(plt_symbols_lookup(&t, 0x1030)->name, "abs@plt");
	assert_string_equal(plt_symbols_lookup(&t, 0x103f)->name, "abs@plt");
	assert_string_equal(plt_symbols_lookup(&t, 0x104f)->name, "strlen@plt");
	assert_null(plt_symbols_lookup(&t, 0x1050));
	assert_string_equal(plt_symbols_lookup(&t, 0x1077)->name, "__cxa_finalize@plt");
	assert_null(plt_symbols_lookup(&t, 0x1078));
	struct plt_symbols empty = { NULL, 0 };
	assert_null(plt_symbols_lookup(&empty, 0x1030));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decodes_each_stub_shape),
		cmocka_unit_test(test_other_bytes_are_no_stub),
		cmocka_unit_test(test_lookup_covers_the_entry_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
