/*
 * A child made by clone() without CLONE_VM, on a stack of its own, as
 * googletest's thread-safe death tests make it: a new process for which
 * libc runs no fork handlers.  The child calls work() 3 times and returns
 * 7 (its exit status) from its function; given an argument, it execs
 * this program again instead, which calls work() once and exits 5.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;
static char *self;
static int exec_again;

__attribute__((noinline)) void work(int i) { sink += i; }

static int child_main(void *arg)
{
	for (int i = 0; i < 3; i++)
		work(i);
	if (exec_again)
		execl(self, self, "exec'd", (char *)NULL);
	return *(int *)arg;
}

int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] == 'e') {	/* the exec'd image */
		work(1);
		return 5;
	}
	self = argv[0];
	exec_again = argc > 1;
	size_t size = 256 * 1024;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack == MAP_FAILED)
		return 2;
	int status_wanted = 7;
	pid_t pid = clone(child_main, stack + size, SIGCHLD, &status_wanted);
	if (pid < 0)
		return 2;
	int status;
	waitpid(pid, &status, 0);
	work(0);
	if (WIFEXITED(status))
		printf("child exited %d\n", WEXITSTATUS(status));
	else
		printf("child killed by signal %d\n", WTERMSIG(status));
	return 0;
}
