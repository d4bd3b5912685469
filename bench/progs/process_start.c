/*
 * What a child process costs: N children one after another, each forked
 * and waited for; with a PROGRAM, each child execs it (with the
 * arguments after it), as a build tool, a shell or a server that forks
 * does.  Without one the child calls a function and _exit()s.  A
 * profiler that sets each process up as it starts (files, buffers, a
 * measurement of its own cost) adds that to every child.  Prints
 * "WALL_US CPU_US" per child: the parent's elapsed time, and the CPU
 * time of the parent and its children together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double cpu_us(int who)
{
	struct rusage r;
	getrusage(who, &r);
	return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + r.ru_utime.tv_usec +
	       r.ru_stime.tv_usec;
}

static int __attribute__((noinline)) child_work(int i)
{
	return i * 3 + 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	char **prog = argc > 2 ? argv + 2 : NULL;

	if (n < 1)
		return 1;
	double t0 = now_us(), c0 = cpu_us(RUSAGE_SELF) + cpu_us(RUSAGE_CHILDREN);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			if (prog) {
				execv(prog[0], prog);
				_exit(127);
			}
			_exit(child_work(i) == 0);
		}
		int status;
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	double wall = now_us() - t0;
	double cpu = cpu_us(RUSAGE_SELF) + cpu_us(RUSAGE_CHILDREN) - c0;
	printf("%.1f %.1f\n", wall / n, cpu / n);
	return 0;
}
