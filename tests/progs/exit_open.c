/*
 * Ends by calling exit() from inside fin(), after N calls of a leaf: main
 * and fin are still running when the process ends.  fin only flushes, so
 * its time is a few microseconds whatever the profiler did before.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) void leaf(long i)
{
	sink += i;
}

__attribute__((noinline)) void fin(void)
{
	fflush(stdout);
	exit(0);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	for (long i = 0; i < n; i++)
		leaf(i);
	fin();
}
