/*
 * Three threads call spin_N() forever; once each has made 1000 calls the
 * program prints its pid, so a test can SIGKILL it mid-run.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile long counts[3];

__attribute__((noinline)) void spin_0(void) { counts[0]++; }
__attribute__((noinline)) void spin_1(void) { counts[1]++; }
__attribute__((noinline)) void spin_2(void) { counts[2]++; }

static void *worker(void *arg)
{
	long n = (long)arg;
	for (;;) {
		if (n == 0) spin_0();
		else if (n == 1) spin_1();
		else spin_2();
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	while (counts[0] < 1000 || counts[1] < 1000 || counts[2] < 1000)
		usleep(1000);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
