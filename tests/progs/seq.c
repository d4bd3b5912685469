/*
 * A deterministic stream of calls with tail calls and nesting, for
 * comparing a flight recorder's ring with a full trace of the same run.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) void a(long i) { sink += i; }

__attribute__((noinline)) void b(long i)
{
	sink ^= i;
	if (i % 3 == 0)
		a(i);
}

__attribute__((noinline)) void c(long i)
{
	b(i);
	if (i % 7 == 0)
		a(i);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	for (long i = 0; i < n; i++) {
		if (i % 5 == 0)
			c(i);
		else
			b(i);
	}
	printf("%ld\n", sink);
	return 0;
}
