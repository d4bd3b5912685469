/* read_unsized_file(): a /proc file, whose size says 0, read whole and
 * bounded; a file that is not there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"

static void test_reads_what_the_size_hides(void **state)
{
	(void)state;
	size_t len;
	char *maps = read_unsized_file("/proc/self/smaps", 1u << 24, &len);

	assert_non_null(maps);
	/* smaps runs to tens of KB: more than the first read's 4 KB */
	assert_true(len > 4096);
	assert_int_equal(strlen(maps), len);
	assert_int_equal(maps[len - 1], '\n');
	free(maps);
}

static void test_stops_at_the_bound(void **state)
{
	(void)state;
	size_t len;
	char *maps = read_unsized_file("/proc/self/smaps", 5000, &len);

	assert_non_null(maps);
	assert_int_equal(len, 5000);
	assert_int_equal(maps[len], '\0');
	free(maps);
}

static void test_missing_file(void **state)
{
	(void)state;
	size_t len = 7;

	assert_null(read_unsized_file("/proc/self/no-such-file", 100, &len));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_what_the_size_hides),
		cmocka_unit_test(test_stops_at_the_bound),
		cmocka_unit_test(test_missing_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
