/*
 * short_calls N: N calls of a one-line function from one loop, so that
 * with hooks most of the run is theirs.  Known counts: step N, loop 1.
 */
#include <stdlib.h>

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
	loop(argc > 1 ? atoi(argv[1]) : 1000000);
	return 0;
}
