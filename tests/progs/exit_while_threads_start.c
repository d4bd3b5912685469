/*
 * Starts threads and ends the process at once, while they are starting:
 * exit() may come after the runtime made a thread's buffer file and
 * before it wrote the file's header.
 */
#include <pthread.h>
#include <stdlib.h>

static void *worker(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;

	for (int i = 0; i < 16; i++)
		pthread_create(&t, NULL, worker, NULL);
	exit(3);
}
