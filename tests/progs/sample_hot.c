/*
 * A known CPU split for the sampler.  Each round draws a random length R
 * (so the work has no period a timer could lock onto) and spends 4R units
 * in one place and R in another: 80 % against 20 %.
 *   sample_hot flat ROUNDS:  hot() 80 %, cold() 20 %, both called by main
 *   sample_hot stack ROUNDS: spin() 100 %, called 80 % from path_a() and
 *                            20 % from path_b()
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;
static volatile int guard;

#define NOINLINE __attribute__((noinline, noipa))

NOINLINE void hot(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

NOINLINE void cold(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.25;
	sink = x;
}
NOINLINE void spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}
NOINLINE void path_a(long n) { spin(n); guard++; }
NOINLINE void path_b(long n) { spin(n); guard++; }

int main(int argc, char **argv)
{
	int stack = argc > 1 && !strcmp(argv[1], "stack");
	long rounds = argc > 2 ? atol(argv[2]) : 600;
	unsigned long seed = 12345;

	for (long k = 0; k < rounds; k++) {
		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
		long r = 50000 + (long)((seed >> 33) % 200000);
		if (stack) {
			path_a(4 * r);
			path_b(r);
		} else {
			hot(4 * r);
			cold(r);
		}
	}
	printf("done\n");
	return 0;
}
