/*
 * A histogram of durations in powers of two: bucket 0 holds the value 0,
 * bucket K (1..64) holds the values from 2^(K-1) to 2^K - 1.  Sixty-five
 * counters cover every uint64_t, so adding is a count of leading zeros and
 * an increment, and the memory does not grow with the values.
 */
#ifndef CALLSCOPE_MODEL_HISTOGRAM_H
#define CALLSCOPE_MODEL_HISTOGRAM_H

#include <stdint.h>

#define LOG2_HIST_BUCKETS 65

struct log2_hist {
	uint64_t count[LOG2_HIST_BUCKETS];
	uint64_t n;		/* values added */
	/* what one unit of the values is in ns: 0 (or 1) for values in ns;
	 * a count-mode recording's runtime bucketed clock units */
	double unit_ns;
};

/* The bucket of V. */
static inline unsigned log2_hist_bucket(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

static inline void log2_hist_add(struct log2_hist *h, uint64_t v)
{
	h->count[log2_hist_bucket(v)]++;
	h->n++;
}

/* The smallest and largest value of BUCKET (both inclusive). */
void log2_hist_bounds(unsigned bucket, uint64_t *lo, uint64_t *hi);

/* The same in ns, for H's unit: the buckets of one histogram tile the
 * line without gaps. */
void log2_hist_bounds_ns(const struct log2_hist *h, unsigned bucket, uint64_t *lo,
			 uint64_t *hi);

#endif
