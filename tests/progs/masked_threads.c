/*
 * Workers started with every signal blocked, as thread pools start theirs
 * (liblzma's blocks all signals around pthread_create): the sampler must
 * sample them as it samples the main thread, and each thread must read
 * back its mask, and its pending signals, as it set them.  Each thread
 * burns about 200 ms of its CPU time and prints "cpu TID NANOSECONDS" for
 * the samples to be compared with; the masks and pending signals go out as
 * "mask WHO BITS" and "pending WHO BITS", signals 1 to 64 from the left.
 *
 * With the argument "raw", one worker burns its 200 ms with every signal
 * blocked by a system call of its own, which no stand-in sees: its
 * samples are lost, and the recording must say so.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

__attribute__((noinline)) void burn(long long ns)
{
	long long start = cpu_ns();
	double x = 0;

	while (cpu_ns() - start < ns)
		for (int i = 0; i < 10000; i++)
			x += (double)i * 0.5;
	sink = x;
	printf("cpu %ld %lld\n", (long)syscall(SYS_gettid), cpu_ns() - start);
}

static void print_set(const char *what, const char *who, const sigset_t *set)
{
	char bits[65];

	for (int sig = 1; sig <= 64; sig++)
		bits[sig - 1] = sigismember(set, sig) == 1 ? '1' : '0';
	bits[64] = '\0';
	printf("%s %s %s\n", what, who, bits);
}

/* The thread's mask by both calls, and its pending signals. */
static void print_mask(const char *who)
{
	sigset_t by_pthread, by_proc, pending;

	pthread_sigmask(SIG_SETMASK, NULL, &by_pthread);
	sigprocmask(SIG_BLOCK, NULL, &by_proc);
	sigpending(&pending);
	print_set("mask", who, &by_pthread);
	print_set("mask", who, &by_proc);
	print_set("pending", who, &pending);
}

static void *worker(void *arg)
{
	(void)arg;
	burn(200000000);
	print_mask("worker");
	return NULL;
}

/* rt_sigprocmask(SIG_SETMASK, SET, OLD) as a program's own assembly makes
 * it: the kernel's mask is a 64-bit word */
static void raw_set_mask(const unsigned long *set, unsigned long *old)
{
	register long size __asm__("r10") = sizeof(*set);
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(SYS_rt_sigprocmask), "D"(SIG_SETMASK), "S"(set), "d"(old), "r"(size)
			 : "rcx", "r11", "memory");
}

static void *raw_worker(void *arg)
{
	unsigned long every = ~0ul, was;

	(void)arg;
	raw_set_mask(&every, &was);
	burn(200000000);
	raw_set_mask(&was, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	sigset_t all, old;
	pthread_t t[2];

	if (argc > 1 && !strcmp(argv[1], "raw")) {
		pthread_create(&t[0], NULL, raw_worker, NULL);
		pthread_join(t[0], NULL);
		return 0;
	}

	print_mask("main-before");
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	print_mask("main-blocked");
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	print_mask("main-after");
	burn(200000000);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
