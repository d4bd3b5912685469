/*
 * The report of callscope optimize --measure (see measure.h): the numbers
 * gathered per binary, and the table with its verdicts or the JSON
 * document printed from them on stdout.
 */
#ifndef CALLSCOPE_OPTIMIZE_MEASURE_REPORT_H
#define CALLSCOPE_OPTIMIZE_MEASURE_REPORT_H

#include <stddef.h>

#include "symbols/elf_funcs.h"
#include "optimize/measure_jobs.h"
#include "optimize/pages.h"

/* Mean and range of one figure over the code offsets. */
struct spread {
	double mean, min, max;
	size_t n;
};

void spread_add(struct spread *s, double v);

/* What was measured of one binary, over its variants. */
struct binary_numbers {
	struct spread misses[MEASURE_MAX_CACHES];	/* hardware: [0] only */
	/* The same misses per code offset (hardware: summed over the repeats),
	 * for the paired comparison. */
	double at[MEASURE_MAX_CACHES][MEASURE_MAX_OFFSETS];
	struct spread instructions;
	struct page_count pages;
	int pages_known;
	int status;		/* exit status of the program (offset 0) */
	const char *hottest;	/* borrowed from the elf table below */
	char *tail;		/* last line of its output when it failed; owned */
	struct elf_funcs funcs;
};


/* NOW's change against BEFORE in percent (0 when BEFORE is 0). */
double measure_change(double now, double before);

/* NCOL columns of misses, named by LABELS. */
void measure_print_text(const struct measurement *m, const struct binary_numbers *nb,
			size_t ncol, char labels[][32]);
void measure_print_json(const struct measurement *m, const struct binary_numbers *nb,
			size_t ncol, char labels[][32]);

#endif
