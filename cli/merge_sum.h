/*
 * callscope merge's sums: each recording is added, one at a time, into a
 * summed profile (model/sum.h) that formats/sum_write.c writes.  A
 * count-mode recording, or a sum, is added without symbols (its call
 * paths name functions by address); a trace is replayed first.
 */
#ifndef CALLSCOPE_CLI_MERGE_SUM_H
#define CALLSCOPE_CLI_MERGE_SUM_H

#include "formats/native.h"
#include "formats/sum_write.h"
#include "model/sum.h"

struct merge_sum {
	struct profile_sum sum;
	struct sum_origin origin;
	int have_origin;
};

void merge_sum_init(struct merge_sum *m);
void merge_sum_release(struct merge_sum *m);

/* Adds the recording DF (read from PATH, named in messages) to M; dies
 * with one line when it cannot be summed. */
void merge_sum_add(struct merge_sum *m, const struct data_file *df, const char *path);

/* Dies with one line unless DF (read from PATH) counted the events
 * HAVE[0..NHAVE) counted, as C1 and C2: runs merge only so. */
void merge_check_counters(const struct data_counter *have, size_t nhave, const struct data_file *df,
			  const char *path);

#endif
