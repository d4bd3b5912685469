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
