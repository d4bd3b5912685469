/*
 * Line execution counts (formats/gcov_read.h): callscope annotate
 * --counts, the source with each line's count, and report --lines
 * --counts, the lines by executions.
 */
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

/*
 * The lines of the program DF recorded (INPUT, for messages) with code
 * that ran, the most executed first, and how many never ran; JSON as
 * {"never_run", "lines": [{"file", "line", "count"}]}.  Returns the exit
 * status.
 */
int count_lines_report(const struct data_file *df, const char *input, int json);

#endif
