/*
 * runtime/eh_frame.c, which the sampler reads in a signal handler: where
 * a function begins, found through a loaded object's .eh_frame_hdr search
 * table, and "not found" -- never a read outside the table's segment --
 * for a PC no FDE covers or a damaged table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#undef _GNU_SOURCE	/* the file defines it for itself */
#include "runtime/eh_frame.c"

__attribute__((noinline)) int eh_test_known(int x);
__attribute__((noinline)) int eh_test_known(int x)
{
	return x * 3 + 1;
}

struct found {
	uintptr_t addr;
	struct eh_table table;
	int ok;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct found *f = data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_memsz) {
			f->ok = eh_table_find(info, &f->table) == 0;
			return 1;
		}
	}
	return 0;
}

static struct eh_table own_table(void)
{
	struct found f = { (uintptr_t)eh_test_known, { { NULL, NULL }, NULL, NULL, 0, 0 }, 0 };

	dl_iterate_phdr(find_object, &f);
	assert_true(f.ok);
	assert_true(f.table.count > 10);
	return f.table;
}

static void test_names_the_function_holding_a_pc(void **state)
{
	struct eh_table t = own_table();
	uintptr_t known = (uintptr_t)eh_test_known;

	(void)state;
	assert_int_equal(eh_test_known(2), 7);
	assert_int_equal(eh_function_start(&t, known), known);
	assert_int_equal(eh_function_start(&t, known + 3), known);
	assert_int_equal(eh_function_start(&t, (uintptr_t)test_names_the_function_holding_a_pc + 5),
			 (uintptr_t)test_names_the_function_holding_a_pc);
}

static void test_no_fde_no_function(void **state)
{
	struct eh_table t = own_table();
	uintptr_t first;
	const uint8_t *fde;

	(void)state;
	assert_int_equal(eh_table_entry(&t, 0, &first, &fde), 0);
	assert_int_equal(eh_function_start(&t, first - 1), 0);
	/* data, far above any code */
	assert_int_equal(eh_function_start(&t, (uintptr_t)t.hdr), 0);
	assert_int_equal(eh_table_entry(&t, t.count, &first, &fde), -1);
}

static void test_damaged_tables_find_nothing(void **state)
{
	struct eh_table t = own_table();
	uintptr_t known = (uintptr_t)eh_test_known;

	(void)state;
	/* the segment ends inside the table: entries past it are not read */
	struct eh_table cut = t;
	cut.span.hi = t.entries + 8;
	assert_int_equal(eh_function_start(&cut, known), 0);
	/* entries whose FDEs lie outside the segment */
	uint8_t copy[4 + 4 + 4 + 2 * 8];
	int32_t v;
	struct eh_table fake = { { copy, copy + sizeof(copy) }, copy, copy + 12, 2, 0x3b };
	memset(copy, 0, sizeof(copy));
	copy[0] = 1;
	v = (int32_t)(known - (uintptr_t)copy);
	memcpy(copy + 12, &v, 4);
	v = 1 << 30;	/* an FDE a gigabyte away */
	memcpy(copy + 16, &v, 4);
	v = (int32_t)(known + 64 - (uintptr_t)copy);
	memcpy(copy + 20, &v, 4);
	v = -(1 << 30);
	memcpy(copy + 24, &v, 4);
	assert_int_equal(eh_function_start(&fake, known + 1), 0);
	assert_int_equal(eh_function_start(&fake, known + 100), 0);
	fake.count = 0;
	assert_int_equal(eh_function_start(&fake, known), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_the_function_holding_a_pc),
		cmocka_unit_test(test_no_fde_no_function),
		cmocka_unit_test(test_damaged_tables_find_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
