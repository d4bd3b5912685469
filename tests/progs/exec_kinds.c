/*
 * Execs itself N times, each image by the way KIND names, after some CPU
 * time in the kernel (reads of /dev/zero) so that a sampler counting it
 * has periods ending inside the exec:
 *
 *   exec_kinds KIND N
 *
 * KIND: execv, execve, execvp, execvpe, execl, execle, execlp, fexecve,
 * execveat, syscall (the raw system call), vfork (a vfork()'s child
 * execs while the parent waits, then the parent goes on), fail (an exec
 * of a missing program, then 200 ms of CPU time computing, which a
 * sampler must go on sampling).  The last image prints "done".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;
static volatile unsigned long sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void in_kernel(double ms)
{
	static char buf[65536];
	double end = cpu_ms() + ms;
	int fd = open("/dev/zero", O_RDONLY);

	while (fd >= 0 && cpu_ms() < end)
		sink += (unsigned long)read(fd, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
}

__attribute__((noinline)) void in_user(double ms)
{
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		for (int i = 0; i < 20000; i++)
			sink = sink * 2862933555777941757ul + 3037000493ul;
}

static void replace(const char *kind, char *next)
{
	char *argv[] = { "exec_kinds", (char *)kind, next, NULL };
	const char *self = "/proc/self/exe";

	if (!strcmp(kind, "execv") || !strcmp(kind, "fail"))
		execv(self, argv);
	else if (!strcmp(kind, "execve"))
		execve(self, argv, environ);
	else if (!strcmp(kind, "execvp"))
		execvp(self, argv);
	else if (!strcmp(kind, "execvpe"))
		execvpe(self, argv, environ);
	else if (!strcmp(kind, "execl"))
		execl(self, argv[0], kind, next, (char *)NULL);
	else if (!strcmp(kind, "execle"))
		execle(self, argv[0], kind, next, (char *)NULL, environ);
	else if (!strcmp(kind, "execlp"))
		execlp(self, argv[0], kind, next, (char *)NULL);
	else if (!strcmp(kind, "fexecve"))
		fexecve(open(self, O_RDONLY | O_CLOEXEC), argv, environ);
	else if (!strcmp(kind, "execveat"))
		execveat(AT_FDCWD, self, argv, environ, 0);
	else if (!strcmp(kind, "syscall"))
		syscall(SYS_execve, self, argv, environ);
	perror(kind);
	exit(1);
}

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "execv";
	int n = argc > 2 ? atoi(argv[2]) : 10;
	char next[16];

	in_kernel(2);
	if (n <= 0) {
		puts("done");
		return 0;
	}
	snprintf(next, sizeof(next), "%d", n - 1);
	if (!strcmp(kind, "fail")) {
		char *none[] = { "no-such-program", NULL };
		execv("./no-such-program", none);
		in_user(200);
		puts("done");
		return 0;
	}
	if (!strcmp(kind, "vfork")) {
		char *child[] = { "exec_kinds", "execv", "0", NULL };
		int status;
		pid_t pid = vfork();
		if (pid == 0) {
			execv("/proc/self/exe", child);
			_exit(127);
		}
		waitpid(pid, &status, 0);
		in_user(200);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	replace(kind, next);
	return 1;
}
