/*
 * timed_run CMD [ARG...]: runs CMD and prints "CPU WALL" in seconds: the
 * CPU time of CMD and of every process it waited for (wait4's rusage),
 * and the wall time from just before the fork to just after the wait.
 * Nothing else is run around it (perf stat's own perf event would take
 * the kernel's first-event wait on itself, see bench/sampling-cold.sh).
 * CMD's output goes to /dev/null; a CMD that fails is said to.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	struct rusage ru;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: timed_run CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	pid_t pid = fork();
	if (pid < 0) {
		perror("timed_run: fork");
		return 1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(127);
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("timed_run: wait4");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%.6f %.6f\n", seconds(ru.ru_utime) + seconds(ru.ru_stime),
	       (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "timed_run: %s failed (status %#x)\n", argv[1], status);
	return 1;
}
