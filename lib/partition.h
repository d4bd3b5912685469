/*
 * Binary search, written once.  PARTITION_POINT(N, I, BELOW) is the first
 * of the indices 0..N at which the condition BELOW, an expression of the
 * index variable I, turns false, for elements ordered so that it holds
 * for a prefix of them (C++'s std::partition_point): with BELOW
 * "a[I].addr < addr", the first element at or above ADDR; with "<=", the
 * first above it.  N when it holds for all.
 */
#ifndef CALLSCOPE_LIB_PARTITION_H
#define CALLSCOPE_LIB_PARTITION_H

#include <stddef.h>

#define PARTITION_POINT(n, i, below)                                  \
	({                                                            \
		size_t partition_lo_ = 0, partition_hi_ = (n);        \
		while (partition_lo_ < partition_hi_) {               \
			size_t i = partition_lo_ +                    \
				   (partition_hi_ - partition_lo_) / 2; \
			if (below)                                    \
				partition_lo_ = i + 1;                \
			else                                          \
				partition_hi_ = i;                    \
		}                                                     \
		partition_lo_;                                        \
	})

#endif
