/*
 * callscope optimize --measure: runs binaries of one program, linked in
 * different orders, on the same input and compares their instruction-cache
 * misses.
 *
 * With the hardware event (L1-icache-load-misses) where the machine has
 * it; otherwise simulated by valgrind's cachegrind for each cache asked.
 * A layout's simulated misses swing by tens of percent when the same code
 * merely moves by a few bytes, so each binary is also measured relinked
 * with padding before its code (--relink) and the mean and range over
 * those offsets are what is compared.  One figure does not depend on
 * alignment at all: how many 4 KiB pages hold 90 % of the instructions
 * executed in the binary.
 */
#ifndef CALLSCOPE_OPTIMIZE_MEASURE_H
#define CALLSCOPE_OPTIMIZE_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "optimize/cache_spec.h"

#define MEASURE_MAX_CACHES 8
#define MEASURE_MAX_OFFSETS 64

struct measure_options {
	char **binaries;	/* the first is the baseline */
	size_t nbinaries;
	char **args;		/* the program's arguments (after --) */
	size_t nargs;
	const char *stdin_path;	/* the program's input, or NULL for /dev/null */
	struct cache_spec caches[MEASURE_MAX_CACHES];
	size_t ncaches;
	uint64_t offsets[MEASURE_MAX_OFFSETS];	/* bytes of padding; 0 = the binary as given */
	size_t noffsets;
	const char *relink;	/* shell command that relinks with padding, or NULL */
	unsigned jobs;		/* runs at once */
	int json;
	int simulate;		/* use cachegrind even when the hardware event works
				 * (implied by naming caches) */
	int repeat;		/* hardware runs per binary and offset */
};

/* Runs the measurement and prints the table; returns the exit status. */
int measure_run(const struct measure_options *o);

#endif
