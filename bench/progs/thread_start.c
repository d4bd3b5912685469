/*
 * How long a new thread takes to start running: N threads one after
 * another, each created, run (it only reads the clock) and joined.  The
 * latency is from pthread_create()'s call to the thread's first
 * instruction; a profiler that sets each thread up as it starts adds its
 * setup to it.  Prints "MEDIAN_US P90_US WALL_MS".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double started;

static void *body(void *arg)
{
	(void)arg;
	started = now_us();
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200;
	double *lat = calloc((size_t)n, sizeof(*lat)), t0 = now_us();

	if (!lat || n < 1)
		return 1;
	for (int i = 0; i < n; i++) {
		pthread_t t;
		double before = now_us();
		if (pthread_create(&t, NULL, body, NULL) != 0)
			return 1;
		pthread_join(t, NULL);
		lat[i] = started - before;
	}
	double wall = now_us() - t0;
	qsort(lat, (size_t)n, sizeof(*lat), by_value);
	printf("%.1f %.1f %.1f\n", lat[n / 2], lat[n * 9 / 10], wall / 1e3);
	return 0;
}
