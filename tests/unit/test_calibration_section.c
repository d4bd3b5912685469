/*
 * The hooks' cost measured again at exit (CALIBRATION section, minor
 * version 4): the reader keeps what start-up measured, and subtracts the
 * lower of the two, and the main thread's running and waiting times it
 * carries; a file of minor version 3, which has no such section,
 * reads with the start's figure; a section naming no process, or a second
 * one for a process, makes the file damaged.  The samples beside a trace
 * that fell in the hooks, trailing fields of later files, are read too,
 * and after them the library calls' hooks measured apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/native.h"
#include "session_payload.h"

struct calibration {
	uint32_t pid, inner, outer;
	uint64_t cpu, wait;
	/* with SAMPLES: the trailing fields up to the samples in the hooks */
	int samples;
	struct data_hook_samples hooks;
	/* with LIBRARY too: the library calls' figures at start and at
	 * exit (inner, outer each), then hooks' library_* fields */
	int library;
	uint32_t library_x256[4];
};

static void put_section(FILE *f, enum section_type type, const uint8_t *buf,
			const struct sec_builder *b)
{
	assert_false(b->overflow);
	assert_int_equal(data_write_section(f, type, buf, (size_t)(b->p - buf)), 0);
}

/* A sealed file of MINOR version with a trace's SESSION, process 42
 * calibrated at start to 300 + 500 (x256 clock units), and the
 * CALIBRATION sections CAL (N of them).  Returns a malloc'd copy the
 * caller frees, its size in *SIZE. */
static uint8_t *write_file(unsigned minor, const struct calibration *cal, size_t n, size_t *size)
{
	FILE *f = tmpfile();
	uint8_t buf[256];
	struct sec_builder b = { buf, buf + sizeof(buf), 0 };

	assert_non_null(f);
	assert_int_equal(data_write_header(f), 0);
	uint8_t version[2] = { (uint8_t)minor, 0 };	/* little-endian u16 at offset 10 */
	assert_int_equal(fseek(f, 10, SEEK_SET), 0);
	assert_int_equal(fwrite(version, 1, 2, f), 2);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_int_equal(data_write_section(f, SECTION_SESSION, buf,
					    session_payload(buf, sizeof(buf))), 0);
	sec_put_u32(&b, 42);	/* pid */
	sec_put_u32(&b, 0);	/* image */
	sec_put_u32(&b, 1);	/* parent */
	sec_put_u32(&b, 1);	/* clock */
	sec_put_u64(&b, 1000);
	sec_put_u64(&b, 1000);
	sec_put_u32(&b, 300);
	sec_put_u32(&b, 500);
	sec_put_blob(&b, "/bin/p", 6);
	sec_put_blob(&b, "p", 1);
	put_section(f, SECTION_PROCESS, buf, &b);

	for (size_t i = 0; i < n; i++) {
		b = (struct sec_builder){ buf, buf + sizeof(buf), 0 };
		sec_put_u32(&b, cal[i].pid);
		sec_put_u32(&b, 0);
		sec_put_u32(&b, cal[i].inner);
		sec_put_u32(&b, cal[i].outer);
		sec_put_u64(&b, cal[i].cpu);
		sec_put_u64(&b, cal[i].wait);
		if (cal[i].samples) {
			sec_put_u32(&b, 0);	/* flags */
			sec_put_u32(&b, 0);
			sec_put_u64(&b, 0);	/* waiting left out */
			sec_put_u64(&b, cal[i].hooks.taken);
			sec_put_u64(&b, cal[i].hooks.inner);
			sec_put_u64(&b, cal[i].hooks.outer);
			sec_put_u64(&b, cal[i].hooks.unsure);
			sec_put_u64(&b, cal[i].hooks.period_ns);
		}
		if (cal[i].samples && cal[i].library) {
			for (int k = 0; k < 4; k++)
				sec_put_u32(&b, cal[i].library_x256[k]);
			sec_put_u64(&b, cal[i].hooks.library_calls);
			sec_put_u64(&b, cal[i].hooks.library_inner);
			sec_put_u64(&b, cal[i].hooks.library_outer);
			sec_put_u64(&b, cal[i].hooks.library_unsure);
		}
		put_section(f, SECTION_CALIBRATION, buf, &b);
	}
	assert_int_equal(data_write_end(f), 0);
	*size = (size_t)ftell(f);
	uint8_t *out = malloc(*size);
	rewind(f);
	assert_int_equal(fread(out, 1, *size, f), *size);
	fclose(f);
	return out;
}

/* Reads a file of MINOR with CAL; returns the parse's result, the
 * process's figures in *PR, the message in ERR. */
static int read_file(unsigned minor, const struct calibration *cal, size_t n,
		     struct data_process *pr, char *err, size_t errlen)
{
	struct data_file df;
	size_t size;
	uint8_t *bytes = write_file(minor, cal, n, &size);
	int rc = data_file_parse(bytes, size, &df, err, errlen);

	if (rc == 0) {
		assert_int_equal(df.nprocesses, 1);
		*pr = df.processes[0];
		pr->exe = NULL;	/* released below */
	}
	data_file_release(&df);
	free(bytes);
	return rc;
}

static void test_minor_3_reads_with_the_start_figure(void **state)
{
	(void)state;
	struct data_process pr;
	char err[256] = "";

	assert_int_equal(read_file(3, NULL, 0, &pr, err, sizeof(err)), 0);
	assert_false(pr.calibrated_at_exit);
	assert_int_equal(pr.inner_x256, 300);
	assert_int_equal(pr.outer_x256, 500);
}

static void test_lower_exit_figure_is_subtracted(void **state)
{
	(void)state;
	struct calibration cal = { 42, 200, 400, 3000, 1000, 0, { 0 }, 0, { 0 } };
	struct data_process pr;
	char err[256] = "";

	assert_int_equal(read_file(DATA_VERSION_MINOR, &cal, 1, &pr, err, sizeof(err)), 0);
	assert_true(pr.calibrated_at_exit);
	assert_int_equal(pr.inner_x256, 200);
	assert_int_equal(pr.outer_x256, 400);
	assert_int_equal(pr.start_inner_x256, 300);
	assert_int_equal(pr.start_outer_x256, 500);
	assert_int_equal(pr.exit_inner_x256, 200);
	assert_int_equal(pr.exit_outer_x256, 400);
	/* the run's waiting is told, not taken out of the figure */
	assert_int_equal(pr.run_cpu_ns, 3000);
	assert_int_equal(pr.run_wait_ns, 1000);
}

/* the sum decides: a lower inner part alone is not a cheaper call; run
 * times of 0 are not known */
static void test_higher_exit_figure_keeps_the_start(void **state)
{
	(void)state;
	struct calibration cal = { 42, 100, 900, 0, 0, 0, { 0 }, 0, { 0 } };
	struct data_process pr;
	char err[256] = "";

	assert_int_equal(read_file(DATA_VERSION_MINOR, &cal, 1, &pr, err, sizeof(err)), 0);
	assert_true(pr.calibrated_at_exit);
	assert_int_equal(pr.inner_x256, 300);
	assert_int_equal(pr.outer_x256, 500);
	assert_int_equal(pr.exit_inner_x256, 100);
	assert_int_equal(pr.run_cpu_ns, 0);
}

/* the samples beside the trace that fell in the hooks are read as they
 * were written; a section that ends before them has none */
static void test_hook_samples_read(void **state)
{
	(void)state;
	struct calibration cal = { 42, 200, 400, 3000, 1000, 1, { 90, 30, 20, 6, 1005025, 0, 0, 0, 0 }, 0, { 0 } };
	struct calibration old = { 42, 200, 400, 3000, 1000, 0, { 0 }, 0, { 0 } };
	struct data_process pr;
	char err[256] = "";

	assert_int_equal(read_file(DATA_VERSION_MINOR, &cal, 1, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr.hook_samples.taken, 90);
	assert_int_equal(pr.hook_samples.inner, 30);
	assert_int_equal(pr.hook_samples.outer, 20);
	assert_int_equal(pr.hook_samples.unsure, 6);
	assert_int_equal(pr.hook_samples.period_ns, 1005025);
	assert_int_equal(read_file(DATA_VERSION_MINOR, &old, 1, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr.hook_samples.period_ns, 0);
	assert_int_equal(pr.hook_samples.inner + pr.hook_samples.outer, 0);
}

/* the library calls' hooks: the lower pair of start and exit, the
 * samples in them and the calls apart; an older section has neither */
static void test_library_figures_read(void **state)
{
	(void)state;
	struct calibration cal = { 42, 200, 400, 3000, 1000, 1,
				   { 90, 30, 20, 6, 1005025, 12, 7, 3, 5000 },
				   1, { 500, 300, 450, 340 } };
	struct calibration higher = cal;
	struct data_process pr;
	char err[256] = "";

	assert_int_equal(read_file(DATA_VERSION_MINOR, &cal, 1, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr.library_start_inner_x256, 500);
	assert_int_equal(pr.library_exit_outer_x256, 340);
	assert_int_equal(pr.library_inner_x256, 450);
	assert_int_equal(pr.library_outer_x256, 340);
	assert_int_equal(pr.hook_samples.library_calls, 5000);
	assert_int_equal(pr.hook_samples.library_inner, 12);
	assert_int_equal(pr.hook_samples.library_outer, 7);
	assert_int_equal(pr.hook_samples.library_unsure, 3);
	assert_int_equal(pr.hook_samples.inner, 30);
	higher.library_x256[2] = 900;
	assert_int_equal(read_file(DATA_VERSION_MINOR, &higher, 1, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr.library_inner_x256, 500);
	assert_int_equal(pr.library_outer_x256, 300);
	cal.library = 0;
	assert_int_equal(read_file(DATA_VERSION_MINOR, &cal, 1, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr.library_inner_x256 + pr.library_outer_x256, 0);
	assert_int_equal(pr.hook_samples.library_calls, 0);
}

static void test_damaged_calibration_refused(void **state)
{
	(void)state;
	struct calibration stranger = { 7, 1, 1, 0, 0, 0, { 0 }, 0, { 0 } };
	struct calibration twice[2] = { { 42, 1, 1, 0, 0, 0, { 0 }, 0, { 0 } },
					 { 42, 2, 2, 0, 0, 0, { 0 }, 0, { 0 } } };
	struct data_process pr;
	char err[256] = "";

	assert_int_equal(read_file(DATA_VERSION_MINOR, &stranger, 1, &pr, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CALIBRATION section"));
	assert_non_null(strstr(err, "never described"));
	assert_int_equal(read_file(DATA_VERSION_MINOR, twice, 2, &pr, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "calibrated twice"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minor_3_reads_with_the_start_figure),
		cmocka_unit_test(test_lower_exit_figure_is_subtracted),
		cmocka_unit_test(test_higher_exit_figure_keeps_the_start),
		cmocka_unit_test(test_hook_samples_read),
		cmocka_unit_test(test_library_figures_read),
		cmocka_unit_test(test_damaged_calibration_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
