/*
 * Forks where the runtime cannot give the child a file of its own: the
 * staging directory (named in the runtime's settings) is made unwritable
 * first, by dropping root's privileges as a daemon does, or else by
 * taking away its write permission.  The child must still run, return
 * from the functions it was inside of when it was forked (their returns
 * were redirected in the parent) and exit 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) void work(int i) { sink += i; }

__attribute__((noinline)) pid_t spawn(void)
{
	pid_t pid = fork();
	work(1);
	return pid;
}

int main(void)
{
	const char *settings = getenv("CALLSCOPE_CONTRACT");
	const char *dir = settings ? strstr(settings, ";dir=") : NULL;
	if (!dir)
		return 2;
	dir += 5;
	int root = geteuid() == 0;
	if (root ? setgid(65534) != 0 || setuid(65534) != 0 : chmod(dir, 0500) != 0)
		return 2;
	pid_t pid = spawn();
	if (pid == 0)
		_exit(sink == 1 ? 0 : 3);
	int status;
	waitpid(pid, &status, 0);
	if (!root)
		chmod(dir, 0700);
	printf("child %s %d\n", WIFEXITED(status) ? "exited" : "killed by signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
