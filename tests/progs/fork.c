/*
 * The parent calls parent_work() 300 times, the child child_work() 200
 * times, both after fork() inside spawn(); the child exits from inside
 * spawn, so its main and spawn frames are inherited, never called.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) void parent_work(int i) { sink += i; }
__attribute__((noinline)) void child_work(int i) { sink -= i; }

__attribute__((noinline)) pid_t spawn(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 200; i++)
			child_work(i);
		exit(0);
	}
	return pid;
}

int main(void)
{
	pid_t pid = spawn();
	for (int i = 0; i < 300; i++)
		parent_work(i);
	int status;
	waitpid(pid, &status, 0);
	printf("%d\n", sink);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
