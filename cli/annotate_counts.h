/* callscope annotate --counts: the source with each line's execution count. */
#ifndef CALLSCOPE_CLI_ANNOTATE_COUNTS_H
#define CALLSCOPE_CLI_ANNOTATE_COUNTS_H

#include "load/load.h"

/*
 * Prints the sources of the program recorded in INPUT with the counts
 * its --coverage data holds (formats/gcov_read.h): every file, or those
 * the NSPECS SPECS name (a source file by its name, or a function), as
 * text or with JSON as {"files": [{"file", "lines": [{"file", "line",
 * "count"}]}]}.  Returns the exit status.
 */
int annotate_counts(const char *input, const struct load_filter *filter, char **specs,
		    int nspecs, int json);

#endif
