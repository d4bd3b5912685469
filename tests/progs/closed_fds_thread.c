/*
 * A thread runs while the main thread closes every descriptor but 0-2
 * and makes 40 eventfds, which take the numbers it closed; once the
 * thread has ended, all 40 must still be open.  A profiler that closed
 * the descriptor it had for that thread at its end would close one of
 * the program's.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define EVENTFDS 40

__attribute__((noinline)) int step(int x)
{
	return x + 1;
}

static void *worker(void *arg)
{
	long sum = 0;

	for (int i = 0; i < 1000; i++)
		sum += step(i);
	usleep(300 * 1000);	/* ends after the descriptors are taken */
	return (void *)sum;
}

int main(void)
{
	pthread_t t;
	int fds[EVENTFDS], gone = 0;

	pthread_create(&t, NULL, worker, NULL);
	usleep(50 * 1000);
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	for (int i = 0; i < EVENTFDS; i++)
		fds[i] = eventfd(0, 0);
	pthread_join(t, NULL);
	for (int i = 0; i < EVENTFDS; i++)
		if (fcntl(fds[i], F_GETFD) < 0)
			gone++;
	printf("closed behind its back: %d\n", gone);
	return gone != 0;
}
