/*
 * A plain program (no hooks) for record --pid with more threads than get
 * stack copies: N threads (argument 1, default 300) each spin a little and
 * sleep a little, so that every one of them takes samples without the
 * machine's cores all taken, until the file "quit" appears or for at most
 * about a minute.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile int quit;
static volatile unsigned long sink;

static void *spin_and_sleep(void *arg)
{
	const struct timespec pause = { 0, 20 * 1000 * 1000 };

	(void)arg;
	while (!quit) {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300;
	pthread_t *threads = calloc((size_t)n, sizeof(*threads));

	for (int i = 0; i < n; i++)
		pthread_create(&threads[i], NULL, spin_and_sleep, NULL);
	for (int k = 0; k < 600 && access("quit", F_OK) != 0; k++)
		usleep(100 * 1000);
	quit = 1;
	for (int i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
