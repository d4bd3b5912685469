/*
 * Ends by _exit() or _Exit(), which run no atexit handler.
 *
 *   fast_exit _exit   work() spins, then calls _exit(0) two calls deep
 *   fast_exit _Exit   the same by _Exit(0)
 *   fast_exit vfork   a vfork child fails to exec and _exit(127)s, then
 *                     the parent spins in after_vfork() and returns from
 *                     main
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) void spin(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

__attribute__((noinline)) void leave(const char *how)
{
	fflush(stdout);
	if (!strcmp(how, "_Exit"))
		_Exit(0);
	_exit(0);
}

__attribute__((noinline)) void work(const char *how)
{
	spin(30000000);
	leave(how);
}

__attribute__((noinline)) void after_vfork(void)
{
	spin(30000000);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (!strcmp(argv[1], "vfork")) {
		pid_t pid = vfork();
		if (pid == 0) {
			char *args[] = { "no-such-program", NULL };
			execv("./no-such-program", args);
			_exit(127);
		}
		int status;
		waitpid(pid, &status, 0);
		after_vfork();
		printf("child %d\n", WEXITSTATUS(status));
		return 0;
	}
	puts("working");
	work(argv[1]);
	return 1;
}
