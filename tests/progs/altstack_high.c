/*
 * A signal handler on an alternate stack above the stack it interrupts:
 * a worker thread (its stack mapped below the main thread's) takes its
 * signals on a buffer in main()'s frame, high up.  victim() raises the
 * signal 3 times from inside its own call, and the handler calls
 * in_handler().  Under -pg, the handler's calls must not make the
 * interrupted, still live calls look finished.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define ALT_SIZE (1 << 16)

static volatile int sink;
static char *alt_mem;

__attribute__((noinline)) void in_handler(void)
{
	sink++;
}

static void handler(int sig)
{
	(void)sig;
	in_handler();
}

__attribute__((noinline)) void victim(void)
{
	sink++;
	raise(SIGUSR1);
	sink++;
}

__attribute__((noinline)) void *worker(void *arg)
{
	stack_t ss;

	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = alt_mem;
	ss.ss_size = ALT_SIZE;
	if (sigaltstack(&ss, NULL))
		return NULL;
	for (int i = 0; i < 3; i++)
		victim();
	return arg;
}

int main(void)
{
	char alt[ALT_SIZE];
	struct sigaction sa;
	pthread_t t;

	alt_mem = alt;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK;
	if (sigaction(SIGUSR1, &sa, NULL) || pthread_create(&t, NULL, worker, NULL))
		return 1;
	pthread_join(t, NULL);
	printf("%d\n", sink);
	return 0;
}
