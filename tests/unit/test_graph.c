/*
 * report_graph() on small hand-built profiles, rendered into memory.  The
 * expected lines are gprof's formats (FORMATS.md section 2) filled with
 * numbers computed by hand from the events; times are in microseconds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "report/graph.h"

#define EXIT UINT32_MAX

struct event {
	uint32_t func;		/* EXIT, or the function entered */
	uint64_t time_us;
};

static void replay(struct profile *p, uint32_t tid, uint64_t lost, uint64_t start_us,
		   const struct event *ev, size_t n, uint64_t end_us)
{
	struct thread_info info = {
		.pid = 1, .tid = tid, .start_ns = start_us * 1000, .lost_events = lost,
	};
	struct thread_builder *b = profile_thread_begin(p, &info, 0, 0);

	for (size_t i = 0; i < n; i++) {
		if (ev[i].func == EXIT)
			profile_exit(b, ev[i].time_us * 1000, 0);
		else
			profile_enter(b, ev[i].func, ev[i].time_us * 1000);
	}
	profile_thread_end(b, end_us * 1000);
}

static uint32_t fn(struct profile *p, const char *name, uint64_t addr)
{
	return profile_intern_func(p, name, "/bin/prog", addr, 16, NULL, 0);
}

/*
 * Thread 1: main -> a -> b -> a -> b -> c (a cycle with a leaf below),
 * then main -> fact(3).  Thread 2 starts in c, so c has a spontaneous
 * caller beside b.  "unused" is never called and must not show.
 *
 *   c      5 + 3 self                     a    20 + 20 self, total 70
 *   b      5 + 20 self, total 50          fact 2 + 8 + 8 self, total 18
 *   main   12 self, 88 children           roots: main 100 + c 3 = 103
 */
static struct profile *sample_profile(void)
{
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main", 0x1000), a = fn(p, "a", 0x2000), b = fn(p, "b", 0x3000);
	uint32_t c = fn(p, "c", 0x4000), f = fn(p, "fact", 0x5000);
	fn(p, "unused", 0x6000);
	const struct event t1[] = {
		{ m, 0 }, { a, 10 }, { b, 20 }, { a, 30 }, { b, 40 }, { c, 42 },
		{ EXIT, 47 }, { EXIT, 50 }, { EXIT, 60 }, { EXIT, 70 }, { EXIT, 80 },
		{ f, 80 }, { f, 84 }, { f, 88 }, { EXIT, 90 }, { EXIT, 94 }, { EXIT, 98 },
		{ EXIT, 100 },
	};
	const struct event t2[] = { { c, 200 }, { EXIT, 203 } };

	replay(p, 1, 5, 0, t1, sizeof(t1) / sizeof(t1[0]), 100);
	replay(p, 2, 2, 200, t2, sizeof(t2) / sizeof(t2[0]), 203);
	profile_find_cycles(p);
	return p;
}

/* Returns the report as a malloc'd string the caller frees. */
static char *render(const struct profile *p, int json, int brief)
{
	struct graph_options o = { .json = json, .brief = brief };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	report_graph(out, p, &o);
	assert_int_equal(fclose(out), 0);
	return buf;
}

/* Line number (from 0) of the line equal to LINE in TEXT, or -1. */
static int line_at(const char *text, const char *line)
{
	size_t n = strlen(line);
	int no = 0;

	for (const char *s = text; *s; no++) {
		const char *end = strchr(s, '\n');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		if (len == n && !memcmp(s, line, n))
			return no;
		if (!end)
			break;
		s = end + 1;
	}
	return -1;
}

static int has_line(const char *text, const char *line)
{
	int no = line_at(text, line);
	if (no < 0)
		print_error("missing line: '%s'\n", line);
	return no >= 0;
}

static void test_text_layout(void **state)
{
	struct profile *p = sample_profile();
	char *text = render(p, 0, 0);
	(void)state;

	/* The header: losses always shown, the unit named once. */
	assert_int_equal(line_at(text, "lost events: 7"), 0);
	assert_true(has_line(text, "time unit: us, 100% = 103.00 us"));
	assert_true(has_line(text, "index % time    self  children    called     name"));

	/* main [1]: only spontaneous, so gprof's bare line; children by
	 * time, heaviest first, each arc with its exact times. */
	int n = line_at(text, "                                                 <spontaneous>");
	assert_true(n >= 0);
	assert_int_equal(line_at(text, "[1]     97.1   12.00   88.00       1         main [1]"), n + 1);
	assert_int_equal(line_at(text, "               40.00   30.00       1/1           a <cycle 1> [3]"), n + 2);
	assert_int_equal(line_at(text, "               18.00    0.00       1/1           fact [5]"), n + 3);
	assert_int_equal(line_at(text, "-----------------------------------------------"), n + 4);

	/* The cycle as a whole, then its members by time. */
	n = line_at(text, "[2]     68.0   65.00    5.00       1+3       <cycle 1 as a whole> [2]");
	assert_true(n >= 0);
	assert_int_equal(line_at(text, "               40.00    0.00       2             a <cycle 1> [3]"), n + 1);
	assert_int_equal(line_at(text, "               25.00    5.00       2             b <cycle 1> [4]"), n + 2);

	/* A member: its caller in the cycle with a count only, above the
	 * caller from outside, whose count is out of the cycle's calls. */
	n = line_at(text, "[3]     38.8   40.00    0.00       2         a <cycle 1> [3]");
	assert_true(n >= 2);
	assert_true(has_line(text, "                                   1             b <cycle 1> [4]"));
	assert_int_equal(line_at(text, "               40.00   30.00       1/1           main [1]"), n - 1);

	n = line_at(text, "[4]     29.1   25.00    5.00       2         b <cycle 1> [4]");
	assert_true(n >= 1);
	assert_int_equal(line_at(text, "                                   2             a <cycle 1> [3]"), n - 1);
	assert_int_equal(line_at(text, "                5.00    0.00       1/2           c [6]"), n + 1);

	/* Self recursion: calls+selfcalls, and the self arc as counts. */
	n = line_at(text, "[5]     17.5   18.00    0.00       1+2       fact [5]");
	assert_true(n >= 2);
	assert_int_equal(line_at(text, "                                   2             fact [5]"), n - 2);
	assert_int_equal(line_at(text, "               18.00    0.00       1/1           main [1]"), n - 1);

	/* Spontaneous beside a real caller: a line with its times. */
	n = line_at(text, "[6]      7.8    8.00    0.00       2         c [6]");
	assert_true(n >= 2);
	assert_int_equal(line_at(text, "                3.00    0.00       1/2           <spontaneous>"), n - 2);
	assert_int_equal(line_at(text, "                5.00    0.00       1/2           b <cycle 1> [4]"), n - 1);

	/* Entries in index order; the uncalled function is left out. */
	assert_true(line_at(text, "[1]     97.1   12.00   88.00       1         main [1]") <
		    line_at(text, "[2]     68.0   65.00    5.00       1+3       <cycle 1 as a whole> [2]"));
	assert_true(line_at(text, "[5]     17.5   18.00    0.00       1+2       fact [5]") <
		    line_at(text, "[6]      7.8    8.00    0.00       2         c [6]"));
	assert_null(strstr(text, "unused"));
	assert_null(strstr(text, "[7]"));

	/* The index, gprof's three columns of 26. */
	n = line_at(text, "Index by function name");
	assert_true(n > 0);
	assert_int_equal(line_at(text, "\f"), n - 1);
	assert_int_equal(line_at(text,
		"   [3] a <cycle 1>             [6] c                       [1] main"), n + 2);
	assert_int_equal(line_at(text,
		"   [4] b <cycle 1>             [5] fact                    [2] <cycle 1>"), n + 3);

	free(text);
	profile_free(p);
}

static void test_brief_has_no_index(void **state)
{
	struct profile *p = sample_profile();
	char *text = render(p, 0, 1);
	(void)state;

	assert_null(strstr(text, "Index by function name"));
	assert_true(has_line(text, "[6]      7.8    8.00    0.00       2         c [6]"));
	free(text);
	profile_free(p);
}

/* Brackets and braces balance outside strings, and no string is left
 * open: enough to tell the writer's output from a broken document. */
static void assert_balanced_json(const char *s)
{
	char stack[64];
	int depth = 0, in_string = 0;

	for (; *s; s++) {
		if (in_string) {
			if (*s == '\\')
				s++;
			else if (*s == '"')
				in_string = 0;
			continue;
		}
		switch (*s) {
		case '"': in_string = 1; break;
		case '{': case '[':
			assert_true(depth < 64);
			stack[depth++] = *s;
			break;
		case '}':
			assert_true(depth > 0 && stack[depth - 1] == '{');
			depth--;
			break;
		case ']':
			assert_true(depth > 0 && stack[depth - 1] == '[');
			depth--;
			break;
		}
	}
	assert_false(in_string);
	assert_int_equal(depth, 0);
}

static void test_json(void **state)
{
	struct profile *p = sample_profile();
	char *js = render(p, 1, 0);
	(void)state;

	assert_balanced_json(js);
	assert_int_equal(js[0], '{');
	assert_non_null(strstr(js, "\"time_unit\":\"ns\""));
	assert_non_null(strstr(js, "\"lost_events\":7"));
	assert_non_null(strstr(js, "{\"index\":1,\"name\":\"main\",\"object\":\"/bin/prog\","
				   "\"self_ns\":12000,\"children_ns\":88000,\"calls\":1,"
				   "\"self_calls\":0,\"cycle\":0}"));
	assert_non_null(strstr(js, "\"name\":\"fact\",\"object\":\"/bin/prog\",\"self_ns\":18000,"
				   "\"children_ns\":0,\"calls\":1,\"self_calls\":2,\"cycle\":0}"));
	assert_non_null(strstr(js, "\"name\":\"b\",\"object\":\"/bin/prog\",\"self_ns\":25000,"
				   "\"children_ns\":5000,\"calls\":2,\"self_calls\":0,\"cycle\":1}"));
	/* Every arc, the spontaneous and self arcs too. */
	assert_non_null(strstr(js, "{\"caller\":\"<spontaneous>\",\"callee\":\"main\",\"count\":1,"
				   "\"self_ns\":12000,\"child_ns\":88000}"));
	assert_non_null(strstr(js, "{\"caller\":\"main\",\"callee\":\"a\",\"count\":1,"
				   "\"self_ns\":40000,\"child_ns\":30000}"));
	assert_non_null(strstr(js, "{\"caller\":\"a\",\"callee\":\"b\",\"count\":2,"
				   "\"self_ns\":25000,\"child_ns\":25000}"));
	assert_non_null(strstr(js, "{\"caller\":\"fact\",\"callee\":\"fact\",\"count\":2,"
				   "\"self_ns\":0,\"child_ns\":0}"));
	assert_non_null(strstr(js, "{\"caller\":\"<spontaneous>\",\"callee\":\"c\",\"count\":1,"
				   "\"self_ns\":3000,\"child_ns\":0}"));
	assert_non_null(strstr(js, "\"cycles\":[{\"number\":1,\"index\":2,\"members\":[\"a\",\"b\"],"
				   "\"calls\":1,\"internal_calls\":3,\"self_ns\":65000,"
				   "\"total_ns\":70000}]"));
	assert_null(strstr(js, "unused"));
	assert_int_equal(js[strlen(js) - 1], '\n');
	free(js);
	profile_free(p);
}

/* One function of SELF_NS: the unit that report picks for it. */
static void assert_unit(uint64_t self_ns, const char *header, const char *line)
{
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main", 0x1000);
	struct thread_info info = { .pid = 1, .tid = 1 };
	struct thread_builder *b = profile_thread_begin(p, &info, 0, 0);

	profile_enter(b, m, 0);
	profile_exit(b, self_ns, 0);
	profile_thread_end(b, self_ns);
	profile_find_cycles(p);

	char *text = render(p, 0, 1);
	assert_true(has_line(text, "lost events: 0"));
	assert_true(has_line(text, header));
	assert_true(has_line(text, line));
	free(text);
	profile_free(p);
}

static void test_time_unit(void **state)
{
	(void)state;
	assert_unit(999, "time unit: ns, 100% = 999.00 ns",
		    "[1]    100.0  999.00    0.00       1         main [1]");
	assert_unit(999994, "time unit: us, 100% = 999.99 us",
		    "[1]    100.0  999.99    0.00       1         main [1]");
	/* 999.996 us would print as 1000.00: one unit up instead. */
	assert_unit(999996, "time unit: ms, 100% = 1.00 ms",
		    "[1]    100.0    1.00    0.00       1         main [1]");
	assert_unit(2500000000u, "time unit: s, 100% = 2.50 s",
		    "[1]    100.0    2.50    0.00       1         main [1]");
}

/*
 * A recording that began inside main: main is an open frame, never
 * counted and with no spontaneous arc, so the roots hold no time and
 * main's own 50 us is 100%.
 */
static void test_open_frame_is_100_percent(void **state)
{
	struct profile *p = profile_new();
	uint32_t m = fn(p, "main", 0x1000), a = fn(p, "a", 0x2000);
	struct thread_info info = { .pid = 1, .tid = 1 };
	struct thread_builder *b = profile_thread_begin(p, &info, 0, 0);
	(void)state;

	profile_open_frame(b, m, 0);
	profile_enter(b, a, 10000);
	profile_exit(b, 30000, 0);
	profile_thread_end(b, 50000);
	profile_find_cycles(p);

	char *text = render(p, 0, 1);
	assert_true(has_line(text, "time unit: us, 100% = 50.00 us"));
	int n = line_at(text, "[1]    100.0   30.00   20.00                 main [1]");
	assert_true(n >= 1);
	assert_int_equal(line_at(text,
		"                                                 <spontaneous>"), n - 1);
	assert_int_equal(line_at(text,
		"               20.00    0.00       1/1           a [2]"), n + 1);
	assert_true(has_line(text, "[2]     40.0   20.00    0.00       1         a [2]"));
	free(text);
	profile_free(p);
}

static void test_empty_profile(void **state)
{
	struct profile *p = profile_new();
	(void)state;

	profile_find_cycles(p);
	char *text = render(p, 0, 0);
	assert_int_equal(line_at(text, "lost events: 0"), 0);
	assert_true(has_line(text, "time unit: ns, 100% = 0.00 ns"));
	assert_true(has_line(text, "Index by function name"));
	assert_true(has_line(text, "(nothing to show: no call was traced and no timer sample "
				   "taken)"));
	free(text);

	char *js = render(p, 1, 0);
	assert_string_equal(js, "{\"time_unit\":\"ns\",\"lost_events\":0,\"samples\":0,"
				"\"functions\":[],\"arcs\":[],\"sample_arcs\":[],\"cycles\":[]}\n");
	free(js);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_layout),
		cmocka_unit_test(test_brief_has_no_index),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_time_unit),
		cmocka_unit_test(test_open_frame_is_100_percent),
		cmocka_unit_test(test_empty_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
