/*
 * Which hooks' cost a process's times lose (load/hook_cost.c): the one the
 * samples beside the trace measured in place, samples x period / calls,
 * split by the side of the clock read they fell on (the unsure ones half
 * to each), from 25 samples on; the calibration's below that.  A library
 * call's hooks are measured apart, from their own samples and calls, or
 * at the calibration's excess over the compiler hooks' figure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "contract.h"
#include "load/hook_cost.h"

/* A file of one process: calibrated at 2 + 3 ns (x256, clock units of
 * 1 ns), two threads that wrote EVENTS records in all, SAMPLES as given. */
static void check_library(struct data_hook_samples samples, uint64_t events,
			  uint32_t library_inner_x256, uint32_t library_outer_x256,
			  struct hook_cost_choice *out)
{
	struct data_process pr;
	struct data_thread th[2];
	struct data_file df;

	memset(&df, 0, sizeof(df));
	memset(&pr, 0, sizeof(pr));
	memset(th, 0, sizeof(th));
	df.session.clock = CONTRACT_CLOCK_MONO;
	pr.pid = 42;
	pr.inner_x256 = 2 * 256;
	pr.outer_x256 = 3 * 256;
	pr.hook_samples = samples;
	pr.library_inner_x256 = library_inner_x256;
	pr.library_outer_x256 = library_outer_x256;
	df.processes = &pr;
	df.nprocesses = 1;
	th[0].pid = th[1].pid = 42;
	th[0].events_written = events / 4;
	th[1].events_written = events - events / 4;
	df.threads = th;
	df.nthreads = 2;
	hook_cost_of_process(&df, &pr, out);
}

static void check(struct data_hook_samples samples, uint64_t events, struct hook_cost_choice *out)
{
	check_library(samples, events, 0, 0, out);
}

/* GOT is WANT to a thousandth of a ns */
static void near(double got, double want)
{
	assert_true(got > want - 0.001 && got < want + 0.001);
}

/* 1e6 calls (2e6 records), a sample is 1 ms: 1 ns a call per sample */
static const struct {
	struct data_hook_samples samples;
	int in_place;
	double inner, outer, in_place_ns;
} cases[] = {
	/* 30 in the hooks: their figure, the unsure ones half to each side */
	{ { 200, 10, 14, 6, 1000000, 0, 0, 0, 0 }, 1, 13, 17, 30 },
	/* 24: too few, the calibration's 2 + 3 ns */
	{ { 200, 10, 10, 4, 1000000, 0, 0, 0, 0 }, 0, 2, 3, 24 },
	/* none taken (older files, --outside-freq=0) */
	{ { 0 }, 0, 2, 3, 0 },
};

static void test_choice(void **state)
{
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hook_cost_choice c;
		check(cases[i].samples, 2000000, &c);
		assert_int_equal(c.in_place, cases[i].in_place);
		near(c.inner_ns, cases[i].inner);
		near(c.outer_ns, cases[i].outer);
		near(c.in_place_ns, cases[i].in_place_ns);
		near(c.calibrated_ns, 5);
		double n = (double)(cases[i].samples.inner + cases[i].samples.outer +
				    cases[i].samples.unsure);
		near(c.rel_error, n ? 1 / sqrt(n) : 0);
	}
}

/* Library calls: of 1e6 calls, 250000 through a library call's hooks,
 * calibrated at 4 + 6 ns; a sample is 1 ms. */
static void test_library(void **state)
{
	(void)state;
	struct hook_cost_choice c;
	/* the compiler hooks' 30 samples over 750000 calls; the library
	 * calls' 40 over theirs */
	struct data_hook_samples both = { 200, 10, 14, 6, 1000000, 20, 8, 12, 250000 };
	check_library(both, 2000000, 4 * 256, 6 * 256, &c);
	assert_true(c.in_place);
	near(c.inner_ns, 13 / 0.75);
	near(c.outer_ns, 17 / 0.75);
	near(c.library_inner_ns, 26 * 4);
	near(c.library_outer_ns, 14 * 4);
	assert_int_equal(c.library_calls, 250000);
	/* too few of the library calls' own: the compiler hooks' figure in
	 * place, and the calibration's excess (2 + 3 ns) */
	struct data_hook_samples few = { 200, 10, 14, 6, 1000000, 2, 1, 0, 250000 };
	check_library(few, 2000000, 4 * 256, 6 * 256, &c);
	near(c.library_inner_ns, 13 / 0.75 + 2);
	near(c.library_outer_ns, 17 / 0.75 + 3);
	/* no samples: each calibration's figure */
	struct data_hook_samples none = { 0 };
	none.library_calls = 250000;
	check_library(none, 2000000, 4 * 256, 6 * 256, &c);
	assert_false(c.in_place);
	near(c.inner_ns, 2);
	near(c.library_inner_ns, 4);
	near(c.library_outer_ns, 6);
	/* not measured apart (older files): the compiler hooks' figure */
	check_library(none, 2000000, 0, 0, &c);
	near(c.library_inner_ns, 2);
	near(c.library_outer_ns, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_library),
	};
	return cmocka_run_group_tests_name("hook_cost", tests, NULL, NULL);
}
