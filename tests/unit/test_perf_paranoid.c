/*
 * perf_paranoid_read(), the one reader of kernel.perf_event_paranoid:
 * the number the kernel shows, and *LEVEL untouched when there is none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "perf_paranoid.h"

#define SETTING "/proc/sys/kernel/perf_event_paranoid"

static void test_reads_the_kernels_number(void **state)
{
	char text[32] = "";
	FILE *f = fopen(SETTING, "r");
	int level = 1000;

	(void)state;
	if (!f) {
		/* no /proc/sys here: the reader says so and leaves the level */
		assert_int_equal(perf_paranoid_read(&level), -1);
		assert_int_equal(level, 1000);
		return;
	}
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_int_equal(perf_paranoid_read(&level), 0);
	assert_int_equal(level, (int)strtol(text, NULL, 10));
	assert_true(level >= -1 && level <= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_the_kernels_number),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
