/*
 * The HTML report's source lines (report/html_lines.h): weights merged
 * per line and ordered heaviest first, the hot lines' text read once with
 * its context, overlapping contexts taken once, NUL bytes and long lines
 * made safe, an unreadable file counted; and samples in the call-path
 * tree (report/html_tree.h) adding up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/profile.h"
#include "report/html_lines.h"
#include "report/html_tree.h"

/* Writes a 20-line file whose line N reads "line N", except line 9,
 * which holds a NUL byte, and line 12, longer than a page keeps.
 * Returns its malloc'd path. */
static char *source_file(void)
{
	char *path = strdup("/tmp/callscope-unit-lines-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	for (int n = 1; n <= 20; n++) {
		if (n == 9)
			fwrite("a\0b\n", 1, 4, f);
		else if (n == 12)
			fprintf(f, "%0*d\n", HTML_LINE_TEXT_MAX + 50, 0);
		else
			fprintf(f, "line %d\n", n);
	}
	fclose(f);
	return path;
}

static const char *text_of(const struct html_lines *l, uint32_t line)
{
	for (size_t i = 0; i < l->nsource; i++)
		if (l->source[i].line == line)
			return l->source[i].text;
	return NULL;
}

static void sampled_lines(void **state)
{
	(void)state;
	char *path = source_file();
	char *copy = strdup(path);	/* another pointer to the same name */
	struct html_lines *l = html_lines_new();

	html_lines_add(l, path, 7, 1, 3);
	html_lines_add(l, path, 5, 2, 4);
	html_lines_add(l, copy, 7, 1, 2);	/* merged with the first */
	html_lines_add(l, NULL, 0, 3, 1);	/* no line information */
	html_lines_finish(l);

	assert_int_equal(l->nrows, 3);
	assert_int_equal(l->rows[0].line, 7);
	assert_int_equal(l->rows[0].weight, 5);
	assert_int_equal(l->rows[1].line, 5);
	assert_int_equal(l->rows[2].line, 0);
	assert_string_equal(l->files[l->rows[2].file], "");
	/* lines 2..8 around 5, 4..10 around 7: 2..10, once each, in order */
	assert_int_equal(l->nsource, 9);
	for (size_t i = 0; i < l->nsource; i++)
		assert_int_equal(l->source[i].line, i + 2);
	assert_string_equal(text_of(l, 2), "line 2");
	assert_string_equal(text_of(l, 9), "a b");
	assert_null(text_of(l, 11));
	assert_int_equal(l->unreadable, 0);
	html_lines_free(l);

	/* a long line is cut; a file gone is counted, its rows kept */
	l = html_lines_new();
	html_lines_add(l, path, 12, 1, 1);
	html_lines_add(l, "/nonexistent/file.c", 3, 1, 9);
	html_lines_finish(l);
	assert_int_equal(strlen(text_of(l, 12)), HTML_LINE_TEXT_MAX);
	assert_int_equal(l->unreadable, 1);
	assert_int_equal(l->nrows, 2);
	assert_int_equal(l->rows[0].weight, 9);
	html_lines_free(l);

	unlink(path);
	free(path);
	free(copy);
}

static void traced_functions(void **state)
{
	(void)state;
	char *path = source_file();
	struct profile *p = profile_new();
	uint32_t a = profile_intern_func(p, "a", "prog", 0x10, 4, path, 3);
	uint32_t b = profile_intern_func(p, "b", "prog", 0x20, 4, NULL, 0);
	struct html_lines *l = html_lines_new();

	p->funcs[a].self_ns = 500;
	p->funcs[b].self_ns = 900;	/* no line: not shown */
	html_lines_from_functions(l, p);
	html_lines_finish(l);
	assert_true(l->by_time);
	assert_int_equal(l->nrows, 1);
	assert_int_equal(l->rows[0].func, a);
	assert_int_equal(l->rows[0].weight, 500);
	/* the line above the function's (its name), then the function */
	assert_int_equal(l->source[0].line, 2);
	assert_int_equal(l->nsource, HTML_FUNC_LINES);
	html_lines_free(l);
	profile_free(p);
	unlink(path);
	free(path);
}

static void tree_samples(void **state)
{
	(void)state;
	struct profile *p = profile_new();
	uint32_t m = profile_intern_func(p, "main", "prog", 0x10, 4, NULL, 0);
	uint32_t f = profile_intern_func(p, "f", "prog", 0x20, 4, NULL, 0);
	struct html_tree *t = html_tree_new(p, 0);
	struct thread_info info = { 0 };
	const uint32_t in_f[] = { f, m }, in_main[] = { m };

	html_tree_thread_begin(t, &info, 0, 0);
	html_tree_sample(t, in_f, 2, 3);
	html_tree_sample(t, in_main, 1, 2);
	html_tree_sample(t, in_f, 2, 1);
	html_tree_thread_end(t, 0);
	html_tree_finish(t);

	assert_int_equal(t->nnodes, 3);
	assert_true(t->weigh_samples);
	assert_int_equal(t->nodes[HTML_NODE_ROOT].total_samples, 6);
	uint32_t nm = t->nodes[HTML_NODE_ROOT].first_child;
	assert_int_equal(t->nodes[nm].func, m);
	assert_int_equal(t->nodes[nm].self_samples, 2);
	assert_int_equal(t->nodes[nm].total_samples, 6);
	uint32_t nf = t->nodes[nm].first_child;
	assert_int_equal(t->nodes[nf].func, f);
	assert_int_equal(t->nodes[nf].self_samples, 4);
	assert_int_equal(t->threads[0].max_depth, 2);
	html_tree_free(t);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sampled_lines),
		cmocka_unit_test(traced_functions),
		cmocka_unit_test(tree_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
