/*
 * CPU time from the first instruction of main, for the sampler's start
 * (the timer samples the main thread while its task-clock event is being
 * opened, then the event takes over).  Each process prints
 * "cpu TID NANOSECONDS", its thread's CPU time, as the sampling tests read it.
 *   sample_handover spin MS   spin MS ms of CPU
 *   sample_handover fork MS   fork at once; parent and child spin MS ms each
 *   sample_handover exec MS   exec this program at once, which spins MS ms
 *   sample_handover exit      return at once
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static long long thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

__attribute__((noinline)) static void spin(long ms)
{
	double x = 0;
	while (thread_cpu_ns() < ms * 1000000ll)
		for (int i = 0; i < 10000; i++)
			x += (double)i * 0.5;
	sink = x;
	printf("cpu %d %lld\n", (int)gettid(), thread_cpu_ns());
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "exit";
	long ms = argc > 2 ? atol(argv[2]) : 300;

	if (!strcmp(mode, "spin")) {
		spin(ms);
	} else if (!strcmp(mode, "fork")) {
		pid_t child = fork();
		if (child < 0)
			return 1;
		spin(ms);
		if (child == 0)
			return 0;
		int status;
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			return 1;
	} else if (!strcmp(mode, "exec")) {
		execl("/proc/self/exe", argv[0], "spin", argv[2], (char *)NULL);
		return 1;
	} else if (strcmp(mode, "exit")) {
		return 2;
	}
	return 0;
}
