/*
 * Merging recordings: one data file that holds the sections of several,
 * so every command reads them as one run whose numbers are the sums.
 */
#ifndef CALLSCOPE_FORMATS_NATIVE_MERGE_H
#define CALLSCOPE_FORMATS_NATIVE_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "formats/native.h"

struct data_merge_result {
	double worst_rate_ratio;	/* largest clock-rate ratio to the first input's (>= 1) */
	size_t worst_input;		/* which input had it */
	size_t skipped_sections;	/* of types this version does not know */
};

/*
 * Writes to OUT a data file holding IN[0..N) (parsed, see native.h): the
 * first input's SESSION and COUNTERS (all inputs must have counted the
 * same events), one PATCH of every input's, then every input's PROCESS,
 * OBJECT, THREAD and PROCESS_END sections.  Each input's process images are renumbered by an
 * offset so (pid, image) stays unique, and its clock values are moved so
 * that the runs follow one another on the first input's time line.  All
 * inputs must use the same kind of clock.  Returns 0, or -1 with ERR set
 * (errno set too when writing failed).
 */
int data_merge(FILE *out, const struct data_file *in, size_t n, struct data_merge_result *res,
	       char *err, size_t errlen);

#endif
