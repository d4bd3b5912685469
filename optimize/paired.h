/*
 * A paired comparison of two layouts measured at the same code offsets.
 *
 * A layout's misses swing by tens of percent from one offset to the next,
 * and every layout swings with the same offsets: both share the C
 * library's code, whose cache sets no link order moves.  Comparing the
 * ranges asks each layout to beat the other's best offset with its worst;
 * comparing offset by offset takes that shared swing out.  The sign test
 * does it without assuming anything about the swing's shape: under no
 * difference, each offset is as likely to favour one layout as the other.
 */
#ifndef CALLSCOPE_OPTIMIZE_PAIRED_H
#define CALLSCOPE_OPTIMIZE_PAIRED_H

#include <stddef.h>

/* The level below which a paired difference is called: two-sided, 5 %. */
#define PAIRED_LEVEL 0.05

struct paired {
	size_t fewer;		/* offsets where NOW had fewer misses than BEFORE */
	size_t more;		/* offsets where it had more */
	size_t same;		/* ties, left out of the test */
	double p;		/* two-sided sign test; 1 when no offset differs */
};

/* Compares NOW[k] with BEFORE[k] over the N offsets. */
void paired_compare(const double *now, const double *before, size_t n, struct paired *out);

/* 1 when NOW has fewer misses at the PAIRED_LEVEL, -1 more, 0 neither. */
int paired_verdict(const struct paired *p);

#endif
