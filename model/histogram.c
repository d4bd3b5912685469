#include "model/histogram.h"

#include "die.h"

void log2_hist_bounds(unsigned bucket, uint64_t *lo, uint64_t *hi)
{
	if (bucket >= LOG2_HIST_BUCKETS)
		BUG("histogram bucket %u out of range", bucket);
	if (bucket == 0) {
		*lo = *hi = 0;
		return;
	}
	*lo = (uint64_t)1 << (bucket - 1);
	*hi = bucket == 64 ? UINT64_MAX : ((uint64_t)1 << bucket) - 1;
}

/* V units in ns, rounded; saturating. */
static uint64_t to_ns(double v, double unit)
{
	double ns = v * unit + 0.5;
	return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)ns;
}

void log2_hist_bounds_ns(const struct log2_hist *h, unsigned bucket, uint64_t *lo,
			 uint64_t *hi)
{
	log2_hist_bounds(bucket, lo, hi);
	if (h->unit_ns <= 0 || h->unit_ns == 1 || bucket == 0)
		return;
	/* the next bucket starts where this one ends */
	uint64_t next = to_ns((double)*hi + 1, h->unit_ns);
	*lo = to_ns((double)*lo, h->unit_ns);
	*hi = bucket == 64 || next == UINT64_MAX ? UINT64_MAX : next - 1;
	if (*hi < *lo)
		*hi = *lo;
}
