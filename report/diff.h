/*
 * Comparing two profiles function by function: the change in self time,
 * total time and calls from A (the baseline) to B, largest change first.
 * Functions are matched by name and the file name of their object (not
 * the whole path, so runs built in different directories compare).  Two
 * recordings of timer samples alone compare their samples instead: self
 * and total are then a function's own samples and the samples with it on
 * the stack, and there are no calls.  As two runs rarely take the same
 * number of samples, those are compared as shares of each run's samples
 * (percentage points), largest change first.
 */
#ifndef CALLSCOPE_REPORT_DIFF_H
#define CALLSCOPE_REPORT_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "model/profile.h"

struct diff_row {
	const char *name;	/* borrowed from the profiles */
	const char *object;
	int in_a, in_b;
	uint64_t self_a, self_b;
	uint64_t total_a, total_b;
	uint64_t calls_a, calls_b;
};

struct diff {
	struct diff_row *rows;	/* owned; in report order */
	size_t nrows;
	uint64_t self_a, self_b;	/* the profiles' summed self time */
	uint64_t calls_a, calls_b;
	int samples;		/* self and total count samples, not ns */
	uint64_t samples_a, samples_b;	/* then: each run's samples in all */
};

/* V of side B (else A) as a share of that run's samples, in percent. */
double diff_sample_pct(const struct diff *d, int b, uint64_t v);

/*
 * Builds the rows (borrowing names from A and B, which must outlive D),
 * sorted by the absolute change in self time, then in total time, then
 * in calls, then by name.  Returns 0, or -1 when one profile holds
 * samples alone and the other traced times: they have no common unit.
 */
int diff_build(const struct profile *a, const struct profile *b, struct diff *d);
void diff_release(struct diff *d);

struct diff_options {
	const char *name_a, *name_b;	/* how to call the inputs */
	double threshold_pct;	/* hide rows whose self and total changes are both
				 * below this % of A's time (0: show all) */
	int json;
};

/* Whether row R passes the threshold of O (in share points for samples). */
int diff_row_shown(const struct diff *d, const struct diff_row *r, const struct diff_options *o);

void report_diff(FILE *out, const struct diff *d, const struct diff_options *o);

#endif
