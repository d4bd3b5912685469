/* The launcher <-> runtime contract: what one side formats the other
 * parses back, and what is malformed is refused with a reason. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"

static void test_round_trip(void **state)
{
	struct contract in, out;
	char text[CONTRACT_PATH_MAX + 256];
	const char *why = NULL;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.version = CONTRACT_VERSION;
	in.chunk_bytes = 1 << 20;
	in.ring_bytes = 256 << 10;
	in.clock = CONTRACT_CLOCK_MONO;
	in.has_start = 1;
	in.start = (struct contract_range){ 0x1139, 0x2f };
	in.nstops = 2;
	in.stops[0] = (struct contract_range){ 0x1200, 0x10 };
	in.stops[1] = (struct contract_range){ 0xdeadbeef, 1 };
	in.one_pass = 1;
	in.start_stopped = 1;
	in.sample_only = 1;
	in.patch = 1;
	in.hooks = CONTRACT_HOOKS_MCOUNT | CONTRACT_HOOKS_CYG;
	in.time_by_samples = 1;
	in.call_stats = 1;
	in.live = CONTRACT_LIVE_NEVER;
	snprintf(in.dir, sizeof(in.dir), "%s", "/tmp/a;dir=with;semicolons");
	assert_int_equal(contract_format(&in, text, sizeof(text)), 0);
	assert_int_equal(contract_parse(text, &out, &why), 0);
	assert_int_equal(out.chunk_bytes, in.chunk_bytes);
	assert_int_equal(out.ring_bytes, in.ring_bytes);
	assert_int_equal(out.clock, CONTRACT_CLOCK_MONO);
	assert_int_equal(out.has_start, 1);
	assert_int_equal(out.start.addr, 0x1139);
	assert_int_equal(out.start.size, 0x2f);
	assert_int_equal(out.nstops, 2);
	assert_int_equal(out.stops[1].addr, 0xdeadbeef);
	assert_int_equal(out.one_pass, 1);
	assert_int_equal(out.start_stopped, 1);
	assert_int_equal(out.sample_only, 1);
	assert_int_equal(out.patch, 1);
	assert_int_equal(out.hooks, CONTRACT_HOOKS_MCOUNT | CONTRACT_HOOKS_CYG);
	assert_int_equal(out.time_by_samples, 1);
	assert_int_equal(out.call_stats, 1);
	assert_int_equal(out.live, CONTRACT_LIVE_NEVER);
	assert_string_equal(out.dir, in.dir);
}

static void test_defaults(void **state)
{
	struct contract c;
	const char *why = NULL;

	(void)state;
	assert_int_equal(contract_parse("v=1;dir=/x", &c, &why), 0);
	assert_int_equal(c.chunk_bytes, CONTRACT_CHUNK_DEFAULT);
	assert_int_equal(c.ring_bytes, 0);
	assert_int_equal(c.clock, CONTRACT_CLOCK_TSC);
	assert_int_equal(c.has_start, 0);
	assert_int_equal(c.nstops, 0);
	assert_int_equal(c.start_stopped, 0);
	assert_int_equal(c.live, CONTRACT_LIVE_WHEN_THREADED);
	assert_int_equal(c.patch, 0);
	assert_int_equal(c.sample_only, 0);
	assert_string_equal(c.sampling, "");
}

/* The sampler's settings ride in the contract with their length, so their
 * own ';' and ',' do not end the field. */
static void test_sampling_settings(void **state)
{
	static const char *const bad[] = {
		"v=1;smp=5:hz=1;dir=/x",	/* shorter than it says */
		"v=1;smp=400:hz=1;dir=/x",	/* longer than what follows */
		"v=1;smp=4:hz=0;dir=/x",	/* settings the sampler refuses */
		"v=1;smp=0:;dir=/x", "v=1;smp=x:hz=1;dir=/x", "v=1;smp=4;dir=/x",
	};
	char text[CONTRACT_PATH_MAX + CONTRACT_SAMPLING_MAX + 128];
	struct contract in, out;
	struct sampling s;
	const char *why = NULL;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.version = CONTRACT_VERSION;
	in.chunk_bytes = CONTRACT_CHUNK_DEFAULT;
	in.hooks = CONTRACT_HOOKS_FENTRY;
	snprintf(in.sampling, sizeof(in.sampling), "%s",
		 "hz=4000;clock=wall;stack=dwarf;only=libz.so.1,prog;bg=1");
	snprintf(in.dir, sizeof(in.dir), "%s", "/tmp/d");
	assert_int_equal(contract_format(&in, text, sizeof(text)), 0);
	assert_int_equal(contract_parse(text, &out, &why), 0);
	assert_string_equal(out.sampling, in.sampling);
	assert_int_equal(out.hooks, CONTRACT_HOOKS_FENTRY);
	assert_string_equal(out.dir, "/tmp/d");
	assert_int_equal(sampling_parse(out.sampling, &s, &why), 0);
	assert_int_equal(s.hz, 4000);
	assert_int_equal(s.wall, 1);
	assert_string_equal(s.only, "libz.so.1,prog");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(contract_parse(bad[i], &out, &why), -1);
		assert_non_null(why);
	}
}

/* Each of the three live settings comes back as it went. */
static void test_live_settings(void **state)
{
	static const enum contract_live settings[] = {
		CONTRACT_LIVE_WHEN_THREADED, CONTRACT_LIVE_AT_START, CONTRACT_LIVE_NEVER,
	};
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		struct contract in, out;
		const char *why = NULL;
		memset(&in, 0, sizeof(in));
		in.version = CONTRACT_VERSION;
		in.chunk_bytes = CONTRACT_CHUNK_DEFAULT;
		in.live = settings[i];
		snprintf(in.dir, sizeof(in.dir), "%s", "/x");
		assert_int_equal(contract_format(&in, text, sizeof(text)), 0);
		assert_int_equal(contract_parse(text, &out, &why), 0);
		assert_int_equal(out.live, settings[i]);
	}
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		NULL, "", "dir=/x", "v=2;dir=/x", "v=1", "v=1;chunk=12;dir=/x",
		"v=1;chunk=4096000000000;dir=/x", "v=1;ring=1000;dir=/x", "v=1;clock=hpet;dir=/x",
		"v=1;start=zz+1;dir=/x", "v=1;start=10;dir=/x", "v=1;stop=10+1,;dir=/x",
		"v=1;what=1;dir=/x", "v=1;chunk=65536", "v=1;dir=", "v=1;live=1;dir=/x",
		"v=1;live=;dir=/x",
	};
	struct contract c;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;
		assert_int_equal(contract_parse(bad[i], &c, &why), -1);
		assert_non_null(why);
	}
}

static void test_too_many_stops(void **state)
{
	char text[1024] = "v=1;stop=";
	struct contract c;
	const char *why = NULL;

	(void)state;
	for (int i = 0; i <= CONTRACT_STOPS_MAX; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s", i ? ",10+1" : "10+1");
	snprintf(text + strlen(text), sizeof(text) - strlen(text), ";dir=/x");
	assert_int_equal(contract_parse(text, &c, &why), -1);
}

/* The image mark: what the launcher sets parses as no image; what a
 * runtime writes over it in place reads back; what is not a mark, or one
 * whose numbers do not fit, is refused. */
static void test_image_mark(void **state)
{
	char mark[] = IMAGE_MARK_NONE;
	uint32_t pid = 1, image = 1;
	static const char *const bad[] = {
		"", "0000000001.000000000", "0000000001.00000000001", "0000000001-0000000001",
		"000000000x.0000000001", "4294967296.0000000000", "0000000001.4294967296",
	};

	(void)state;
	assert_int_equal(strlen(mark), IMAGE_MARK_LEN);
	assert_int_equal(image_mark_parse(mark, &pid, &image), 0);
	assert_int_equal(pid, 0);
	assert_int_equal(image, 0);
	image_mark_write(mark, 4294967295u, 7);
	assert_string_equal(mark, "4294967295.0000000007");
	assert_int_equal(image_mark_parse(mark, &pid, &image), 0);
	assert_int_equal(pid, 4294967295u);
	assert_int_equal(image, 7);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(image_mark_parse(bad[i], &pid, &image), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_live_settings),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_too_many_stops),
		cmocka_unit_test(test_sampling_settings),
		cmocka_unit_test(test_image_mark),
	};
	return cmocka_run_group_tests_name("contract", tests, NULL, NULL);
}
