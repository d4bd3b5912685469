/*
 * Line execution counts from a program built with --coverage, read with
 * gcov's own reader: the program's .gcda files are named in its binary
 * (libgcov writes there at exit), and `gcov --json-format --stdout` turns
 * each into JSON (format 1, gcc 9 and later), parsed with jansson.  gcov's
 * complaints that the data is stale (the source changed after the build,
 * or the binary after the run) are errors, never zeros.
 */
#ifndef CALLSCOPE_FORMATS_GCOV_READ_H
#define CALLSCOPE_FORMATS_GCOV_READ_H

#include <stddef.h>
#include <stdint.h>

struct gcov_line {
	int line;
	uint64_t count;
	int unexecuted;		/* a block of the line never ran */
	char *function;		/* owned; the linkage name gcov gives, or NULL */
};

struct gcov_file {
	char *path;		/* owned; absolute when gcov could tell */
	struct gcov_line *lines;	/* by line number; executable lines only */
	size_t nlines, lines_alloc;
};

struct gcov_data {
	struct gcov_file *files;
	size_t nfiles, files_alloc;
};

/*
 * Reads the counts of the program PROG into OUT.  Returns 0, or -1 after
 * one error line: no .gcda named in PROG (not built with --coverage), none
 * written yet (the program has not run), gcov missing, or stale data.
 * OUT is always safe to release.
 */
int gcov_read_program(const char *prog, struct gcov_data *out);

/* Whether PROG was built with --coverage (it names a .gcda file); 0 when
 * it cannot be read.  Says nothing. */
int gcov_program_has_counts(const char *prog);

/* The counts of the source PATH in D (by path, else by its last component
 * when only one file has it), or NULL. */
const struct gcov_file *gcov_file_of(const struct gcov_data *d, const char *path);
void gcov_data_release(struct gcov_data *d);

#endif
