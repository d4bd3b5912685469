/*
 * live_when_threaded STEP...: does the steps in order, so that a test can
 * look at the process between them.  Each line it prints begins with the
 * printing process's pid.
 *   count      prints "threads N" from /proc/self/status once the
 *              runtime's short-lived threads of the start are gone: as
 *              soon as N is 1 (after 300 ms at least), or after 3 s
 *   thread     starts a thread of its own (8 at most), which waits for
 *              the file "release", and prints "started"
 *   fork       forks; the child prints "forked" and both go on with the
 *              steps that follow
 *   wait:FILE  waits (10 s at most) for FILE to appear
 * At the end each process joins its threads, the parent waits for its
 * child, and both exit 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_threads.h"

static void say(const char *what, int n)
{
	if (n >= 0)
		printf("%d %s %d\n", (int)getpid(), what, n);
	else
		printf("%d %s\n", (int)getpid(), what);
	fflush(stdout);
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

static void wait_file(const char *name)
{
	for (int waited = 0; access(name, F_OK) != 0 && waited < 1000; waited++)
		sleep_ms(10);
}

static void *waiter(void *arg)
{
	wait_file("release");
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t threads_started[8];
	int started = 0;
	pid_t child = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "count")) {
			int n;
			sleep_ms(300);
			for (int waited = 0; (n = proc_threads()) != 1 && waited < 270; waited++)
				sleep_ms(10);
			say("threads", n);
		} else if (!strcmp(argv[i], "thread")) {
			if (started == 8 ||
			    pthread_create(&threads_started[started], NULL, waiter, NULL) != 0)
				return 1;
			started++;
			say("started", -1);
		} else if (!strcmp(argv[i], "fork")) {
			child = fork();
			if (child < 0)
				return 1;
			if (child == 0) {
				started = 0;	/* the parent's threads are not the child's */
				say("forked", -1);
			}
		} else if (!strncmp(argv[i], "wait:", 5)) {
			wait_file(argv[i] + 5);
		} else {
			return 2;
		}
	}
	while (started)
		pthread_join(threads_started[--started], NULL);
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
