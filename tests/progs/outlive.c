/*
 * Ends before a process it started: `outlive N` forks a child that waits
 * 200 ms, calls leaf() N times and exits, while the parent calls leaf()
 * once and returns from main at once.  `outlive N hang` makes the child
 * sleep for a minute after its calls instead of exiting.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) void leaf(long i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int hang = argc > 2 && !strcmp(argv[2], "hang");

	if (fork() == 0) {
		struct timespec pause = { 0, 200 * 1000 * 1000 };
		nanosleep(&pause, NULL);
		for (long i = 0; i < n; i++)
			leaf(i);
		if (hang)
			sleep(60);
		return 0;
	}
	leaf(-1);
	return 0;
}
