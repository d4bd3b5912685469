/*
 * Replaces itself by exec.  `exec_self N` calls leaf() 100 times in each
 * image, then execs itself with N - 1 from inside replace(), so main and
 * replace are still running in every image but the last, which sleeps
 * 200 ms in last() and exits.  `exec_self N fail` first tries, in every
 * image, to exec a program that does not exist, and goes on when that
 * fails.  `exec_self N fork` makes the first image fork a child that does
 * all this, while the parent waits for it and exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) void leaf(long i)
{
	sink += i;
}

__attribute__((noinline)) void try_missing(void)
{
	char *argv[] = { "no-such-program", NULL };

	execv("./no-such-program", argv);
}

__attribute__((noinline)) void replace(char *self, long n, char *mode)
{
	char arg[24];
	char *argv[] = { self, arg, mode, NULL };

	snprintf(arg, sizeof(arg), "%ld", n);
	fflush(stdout);
	execv("/proc/self/exe", argv);
	perror("execv");
	exit(1);
}

__attribute__((noinline)) void last(void)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;
	char *mode = argc > 2 ? argv[2] : "";

	if (!strcmp(mode, "fork")) {
		int status;
		pid_t child = fork();
		if (child < 0)
			return 1;
		if (child > 0)
			return waitpid(child, &status, 0) == child && WIFEXITED(status)
			       ? WEXITSTATUS(status) : 1;
		mode = "";
	}
	for (long i = 0; i < 100; i++)
		leaf(i);
	if (!strcmp(mode, "fail"))
		try_missing();
	if (n > 0)
		replace(argv[0], n - 1, mode);
	last();
	printf("done\n");
	return 0;
}
