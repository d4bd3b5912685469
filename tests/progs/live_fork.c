/*
 * fork() without exec for the live tests: parent and child both loop,
 * the parent in parent_work, the child in child_work, until the file
 * "quit" appears; the parent then waits for the child and exits with 7.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void parent_work(void)
{
	for (int i = 0; i < 20000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) static void child_work(void)
{
	for (int i = 0; i < 20000; i++)
		sink ^= (unsigned long)i;
}

int main(void)
{
	pid_t child = fork();

	if (child < 0)
		return 1;
	while (access("quit", F_OK) != 0) {
		for (int i = 0; i < 20; i++)
			child ? parent_work() : child_work();
		usleep(2000);
	}
	if (!child)
		return 3;
	int status = 0;
	waitpid(child, &status, 0);
	printf("child %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 7;
}
