/*
 * Which hooks' cost a process's times lose (load/hook_cost.c): the one the
 * samples beside the trace measured in place, samples x period / calls,
 * split by the side of the clock read they fell on (the unsure ones half
 * to each), from 25 samples on; the calibration's below that.
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
static void check(struct data_hook_samples samples, uint64_t events, struct hook_cost_choice *out)
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
	df.processes = &pr;
	df.nprocesses = 1;
	th[0].pid = th[1].pid = 42;
	th[0].events_written = events / 4;
	th[1].events_written = events - events / 4;
	df.threads = th;
	df.nthreads = 2;
	hook_cost_of_process(&df, &pr, out);
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
	{ { 200, 10, 14, 6, 1000000 }, 1, 13, 17, 30 },
	/* 24: too few, the calibration's 2 + 3 ns */
	{ { 200, 10, 10, 4, 1000000 }, 0, 2, 3, 24 },
	/* none taken (older files, --outside-freq=0) */
	{ { 0, 0, 0, 0, 0 }, 0, 2, 3, 0 },
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice),
	};
	return cmocka_run_group_tests_name("hook_cost", tests, NULL, NULL);
}
