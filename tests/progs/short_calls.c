/*
 * short_calls N [MS]: N calls of a one-line function from one loop, so
 * that with hooks most of the run is theirs; with MS, after sleeping MS
 * ms first (the runtime's start done before the calls).  Known counts:
 * step N, loop 1.
 */
#include <stdlib.h>
#include <time.h>

static volatile int sink;

__attribute__((noinline)) void step(int i)
{
	sink += i;
}

__attribute__((noinline)) void loop(int n)
{
	for (int i = 0; i < n; i++)
		step(i);
}

int main(int argc, char **argv)
{
	long ms = argc > 2 ? atol(argv[2]) : 0;
	struct timespec pause = { ms / 1000, ms % 1000 * 1000000 };

	if (ms)
		nanosleep(&pause, NULL);
	loop(argc > 1 ? atoi(argv[1]) : 1000000);
	return 0;
}
