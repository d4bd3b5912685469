/*
 * One thread calls into an object loaded at start (libbusy_a, from
 * patch_busy_lib.c) until told to stop, counting its rounds, while the
 * main thread loads another (libbusy_b) with dlopen and calls into it: a
 * recording with both patched must count exactly the calls the program
 * made.  Prints the rounds the busy thread made on stderr (they vary) and
 * the results on stdout (they do not).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

long a_work(long n);

static volatile int stop;
static long rounds, sum_a;

static void *busy(void *arg)
{
	while (!stop) {
		sum_a += a_work(10);
		rounds++;
	}
	return arg;
}

int main(void)
{
	pthread_t t;
	long sum_b = 0;

	/* the busy thread is in libbusy_a's code when the loader runs;
	 * where threads cannot start (a policy that refuses writable
	 * mprotect refuses their stacks), its rounds are made here */
	int threaded = pthread_create(&t, NULL, busy, NULL) == 0;
	if (!threaded)
		for (stop = 1; rounds < 1000; rounds++)
			sum_a += a_work(10);
	while (rounds < 1000)
		usleep(100);
	void *h = dlopen("libbusy_b.so", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	long (*b_work)(long) = (long (*)(long))dlsym(h, "b_work");
	for (int i = 0; i < 50; i++)
		sum_b += b_work(100);
	stop = 1;
	if (threaded)
		pthread_join(t, NULL);
	printf("b %ld, a %s\n", sum_b, sum_a == rounds * 53 ? "right" : "wrong");
	fprintf(stderr, "rounds %ld\n", rounds);
	return 0;
}
