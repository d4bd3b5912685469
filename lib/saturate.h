/*
 * Rounding a computed time or sum to an integer.  Converting a floating
 * value outside the integer's range is undefined behaviour in C, and a
 * damaged or forged recording can make any product of its counts and its
 * clock rate that large: these give the nearest end of the range instead
 * (0 for a negative value or NaN).  In range they round as (T)(v + 0.5)
 * does, in the argument's own precision, so results do not change.
 */
#ifndef CALLSCOPE_LIB_SATURATE_H
#define CALLSCOPE_LIB_SATURATE_H

#include <stdint.h>

#define SATURATE_2_64 18446744073709551616.0L
#define SATURATE_2_127 170141183460469231731687303715884105728.0L

static inline uint64_t u64_round(double v)
{
	if (!(v > 0))
		return 0;
	v += 0.5;
	return v >= (double)SATURATE_2_64 ? UINT64_MAX : (uint64_t)v;
}

static inline uint64_t u64_roundl(long double v)
{
	if (!(v > 0))
		return 0;
	v += 0.5L;
	return v >= SATURATE_2_64 ? UINT64_MAX : (uint64_t)v;
}

/* Rounds half away from zero, as a sum of signed deviations wants. */
static inline __int128 i128_roundl(long double v)
{
	if (v != v)
		return 0;
	v = v < 0 ? v - 0.5L : v + 0.5L;
	if (v >= SATURATE_2_127)
		return (__int128)(((unsigned __int128)1 << 127) - 1);
	if (v <= -SATURATE_2_127)
		return -(__int128)(((unsigned __int128)1 << 127) - 1) - 1;
	return (__int128)v;
}

static inline unsigned __int128 u128_roundl(long double v)
{
	if (!(v > 0))
		return 0;
	v += 0.5L;
	return v >= 2 * SATURATE_2_127 ? ~(unsigned __int128)0 : (unsigned __int128)v;
}

#endif
