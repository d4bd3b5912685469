/*
 * count --time-by=samples after a return: main calls quick(), a -pg
 * function that returns at once, then burn(), built without -pg (as a
 * library function would be), from the same place, so burn's return
 * address takes the slot where quick's was.  No hook runs in burn, so the
 * shadow stack still holds quick while burn runs: its samples belong to
 * main (the function that called burn, as time in a library is), not to
 * quick.  Built twice: -DHOOKED with -pg (main, quick), else burn.
 */
#include <stdio.h>

void quick(long i);
double burn(long n);

#ifdef HOOKED
volatile long quick_sink;

__attribute__((noinline)) void quick(long i)
{
	quick_sink += i;
}

int main(void)
{
	double sum = 0;

	for (long i = 0; i < 4000; i++) {
		quick(i);
		sum += burn(40000);
	}
	printf("%s\n", sum > 0 ? "ok" : "wrong");
	return 0;
}
#else
__attribute__((noinline)) double burn(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	return x;
}
#endif
