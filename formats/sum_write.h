/*
 * Writing a summed profile (model/sum.h) as a native data file: a
 * count-mode recording (docs/FORMAT.md) of one process with one thread,
 * which every reader of a recording reads, plus a SUM section saying how
 * many runs, processes and threads went into it.
 *
 * Each object gets a load bias of its own far above any real address
 * (SUM_OBJECT_BIAS), so a function's address in the file is its link-time
 * address plus that bias and the usual symbol lookup names it.  The clock
 * is CLOCK_MONOTONIC: a clock unit is a nanosecond, and the hooks' cost
 * is zero because the sum's times have it subtracted already.
 *
 * Everything is written in an order of the sum's own, never the order the
 * runs came in: objects by path, functions by object then address, call
 * paths depth first with the children of a path by function.  The same
 * sum, however it was added up, is the same bytes.
 */
#ifndef CALLSCOPE_FORMATS_SUM_WRITE_H
#define CALLSCOPE_FORMATS_SUM_WRITE_H

#include <stdio.h>

#include "formats/native.h"
#include "model/sum.h"

/* The bias of the K-th object (by path) of a sum. */
#define SUM_OBJECT_BIAS(k) ((1ull << 48) + ((uint64_t)(k) << 36))

/* What a sum says about where it came from: the earliest run's (by wall
 * clock, then command line) session and program. */
struct sum_origin {
	uint64_t unix_start_ns;
	int32_t wait_status;
	char *cwd;		/* owned */
	size_t cwd_len;
	uint8_t *argv_blobs;	/* owned: argc x (u32 length, bytes) */
	size_t argv_len;
	uint32_t argc;
	char *exe;		/* owned */
	uint8_t *cmdline;	/* owned: NUL-separated */
	size_t cmdline_len;
	struct data_counter counters[CONTRACT_COUNTERS_MAX];	/* names owned */
	size_t ncounters;
};

void sum_origin_release(struct sum_origin *o);

/* Writes S as a data file to OUT.  Returns 0 or -1 (errno set). */
int sum_write(FILE *out, const struct profile_sum *s, const struct sum_origin *origin);

#endif
