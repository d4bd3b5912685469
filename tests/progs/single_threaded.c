/*
 * A single-threaded program busy in stdio and malloc, whose paths glibc
 * chooses by whether the process ever had a second thread.  Prints, at
 * exit, __libc_single_threaded (1 while no thread was ever made) and the
 * threads /proc/self/status counts then, once they are down to one or 2 s
 * have passed (a thread that ends soon may not have run yet on a busy
 * machine).
 *
 *   single_threaded N   N rounds of putc and malloc
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/single_threaded.h>
#include <time.h>

#include "proc_threads.h"

__attribute__((noinline)) static void work(long n)
{
	FILE *sink = fopen("/dev/null", "w");

	for (long i = 0; i < n; i++) {
		char *p = malloc(32 + i % 64);
		p[0] = (char)('a' + i % 26);
		putc(p[0], sink);
		free(p);
	}
	fclose(sink);
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 10000000 };
	int threads;

	work(argc > 1 ? atol(argv[1]) : 1000000);
	for (int i = 0; (threads = proc_threads()) > 1 && i < 200; i++)
		nanosleep(&tick, NULL);
	printf("%d %d\n", (int)__libc_single_threaded, threads);
	return 0;
}
