/*
 * A main thread that mostly sleeps: N naps of a millisecond, each a
 * wake-up after which the thread may wait for a CPU that other work has.
 *
 *   naps N
 */
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) void nap(void)
{
	struct timespec ms = { 0, 1000000 };

	nanosleep(&ms, NULL);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;

	for (int i = 0; i < n; i++)
		nap();
	return 0;
}
