/*
 * Prints how many threads the process has once the runtime's short-lived
 * threads of the start (the openers of perf events) are gone: the count
 * from /proc/self/status as soon as it is 1, or whatever it is after
 * 3 s.  A program with a check of its own (googletest's death tests, an
 * unshare() of a user namespace) sees what this sees.  With the
 * argument "hold" it then prints its pid and waits (10 s at most) for a
 * file named "release" to appear, so that a test can try to reach it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc_threads.h"

__attribute__((noinline)) int work(int i)
{
	return i * 7 + 1;
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int n = proc_threads(), sum = 0;

	for (int i = 0; i < 1000; i++)
		sum += work(i);
	for (int waited = 0; n != 1 && waited < 300; waited++) {
		nanosleep(&tick, NULL);
		n = proc_threads();
	}
	printf("threads %d\n", n);
	if (argc > 1 && !strcmp(argv[1], "hold")) {
		printf("pid %d\n", (int)getpid());
		fflush(stdout);
		for (int waited = 0; access("release", F_OK) != 0 && waited < 1000; waited++)
			nanosleep(&tick, NULL);
	}
	return sum == 0;
}
