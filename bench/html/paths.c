/*
 * paths — a call tree of a chosen size for the HTML report's benchmark.
 *
 *   paths DEPTH    every call below DEPTH makes four calls, each to one of
 *                  256 functions picked by a hash of the path so far: about
 *                  (4^(DEPTH+1) - 1) / 3 distinct call paths, one call each
 *                  (DEPTH 9: 350 k, 10: 1.4 M, 11: 5.6 M).
 *
 * The four callees of one call are distinct functions, so the paths do not
 * merge; the work per call is a few instructions, so the recording is
 * about the calls.
 */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long (*fn)(unsigned, unsigned);
static fn table[256];
static volatile unsigned long sink;

static inline __attribute__((no_instrument_function)) unsigned mix(unsigned s, unsigned c)
{
	s ^= c * 0x9E3779B9u;
	s *= 0x85EBCA6Bu;
	return s ^ (s >> 13);
}

#define F(n)                                                                   \
	__attribute__((noinline)) unsigned long f##n(unsigned d, unsigned s)   \
	{                                                                      \
		unsigned long r = n;                                           \
		if (!d)                                                        \
			return r + s;                                          \
		for (unsigned c = 0; c < 4; c++) {                             \
			unsigned k = mix(s, c + n);                            \
			r += table[((k & 63) + c * 64) & 255](d - 1, k);      \
		}                                                              \
		return r;                                                      \
	}
#define F4(n) F(n##0) F(n##1) F(n##2) F(n##3)
#define F16(n) F4(n##0) F4(n##1) F4(n##2) F4(n##3)
#define F64(n) F16(n##0) F16(n##1) F16(n##2) F16(n##3)
F64(1) F64(2) F64(3) F64(4)

#define T(n) table[i++] = f##n;
#define T4(n) T(n##0) T(n##1) T(n##2) T(n##3)
#define T16(n) T4(n##0) T4(n##1) T4(n##2) T4(n##3)
#define T64(n) T16(n##0) T16(n##1) T16(n##2) T16(n##3)

int main(int argc, char **argv)
{
	unsigned depth = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
	int i = 0;

	T64(1) T64(2) T64(3) T64(4)
	sink = table[0](depth, 12345);
	printf("%lu\n", sink);
	return 0;
}
