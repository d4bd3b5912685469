/*
 * Changes directory, then starts a thread, forks a child and execs itself
 * again in that child's child, each calling work() once: the recording's
 * staging directory must be found from wherever the program has gone.
 * A test suite's shell does the same when it runs `cd dir && prog`.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) void work(int i) { sink += i; }

static void *thread_main(void *arg)
{
	work(1);
	return arg;
}

int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] == 'x') {	/* the exec'd image */
		work(3);
		return 0;
	}
	if (argc < 2 || chdir(argv[1]) != 0) {
		fprintf(stderr, "usage: chdir_then_spawn DIR (an existing directory)\n");
		return 2;
	}
	pthread_t th;
	pthread_create(&th, NULL, thread_main, NULL);
	pthread_join(th, NULL);
	pid_t pid = fork();
	if (pid == 0) {
		work(2);
		execl("/proc/self/exe", argv[0], "x", (char *)NULL);
		_exit(127);
	}
	int status;
	waitpid(pid, &status, 0);
	work(0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
