/*
 * The sampling benchmark's workload: eight functions with known shares of
 * the work (30, 20, 15, 10, 10, 7, 5, 3 %), interleaved in a random order
 * so no timer can lock onto a period.  About half a second at -O2.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

#define WORK(name, k)                                            \
	__attribute__((noinline)) void name(long n)              \
	{                                                        \
		double x = 0;                                    \
		for (long i = 0; i < n; i++)                     \
			x += (double)i * (k);                    \
		sink = x;                                        \
	}
WORK(w30, 0.30) WORK(w20, 0.20) WORK(w15, 0.15) WORK(w10a, 0.101)
WORK(w10b, 0.102) WORK(w07, 0.07) WORK(w05, 0.05) WORK(w03, 0.03)

int main(int argc, char **argv)
{
	static void (*const fn[])(long) = { w30, w20, w15, w10a, w10b, w07, w05, w03 };
	static const int share[] = { 30, 20, 15, 10, 10, 7, 5, 3 };
	long rounds = argc > 1 ? atol(argv[1]) : 12000;
	unsigned long seed = 42;

	for (long r = 0; r < rounds; r++) {
		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
		int k = (int)((seed >> 33) % 8);
		fn[k](share[k] * 4000L);
	}
	printf("done\n");
	return 0;
}
