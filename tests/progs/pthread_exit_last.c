/*
 * The program's last thread ends while the main thread is gone by
 * pthread_exit: glibc then ends the process with exit(0), flushing stdio.
 * With "fork", a thread forks, and in the child that thread (the child's
 * leader) starts another and returns, as a Python thread that forks
 * does; the parent waits for the child and says how it ended.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static void work(int i)
{
	sink += i;
}

static void *worker(void *arg)
{
	(void)arg;
	usleep(50000);	/* outlive the thread that started it */
	for (int i = 0; i < 1000; i++)
		work(i);
	printf("worker done\n");
	return NULL;
}

static void *forker(void *arg)
{
	(void)arg;
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t t;
		pthread_create(&t, NULL, worker, NULL);
		return NULL;	/* the child's leader ends first */
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return NULL;
	printf("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	fflush(stdout);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	setvbuf(stdout, NULL, _IOFBF, 4096);	/* only exit's flush writes it */
	if (argc > 1 && !strcmp(argv[1], "fork")) {
		pthread_create(&t, NULL, forker, NULL);
		pthread_join(t, NULL);
		return 0;
	}
	pthread_create(&t, NULL, worker, NULL);
	pthread_exit(NULL);
}
