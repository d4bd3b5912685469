/*
 * Stacks for the sampler's unwinding in the signal handler (built -O2
 * -fomit-frame-pointer, so only the call frame information leads to the
 * callers).
 *   sample_frames big ROUNDS:     leaf() 100 %, called below a frame with a
 *                                 20 KB buffer: more than a copy of 8 KB
 *   sample_frames signal ROUNDS:  the work in the program's own SIGUSR1
 *                                 handler, raised from in_handler()
 *   sample_frames smash ROUNDS:   the work while random words, some like
 *                                 stack or code addresses, lie where the
 *                                 callers' frames were (put back after)
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noipa))

static volatile long sink;
static long work_units;

NOINLINE long leaf(long n)
{
	long x = 0;
	for (long i = 0; i < n; i++)
		x += (i * i) ^ (x >> 3);
	return x;
}

NOINLINE long big_frame(long n, int seed)
{
	char buf[20000];

	memset(buf, seed, sizeof(buf));
	__asm__ volatile("" : : "r"(buf) : "memory");	/* the buffer stays on the stack */
	long r = leaf(n);
	for (size_t i = 0; i < sizeof(buf); i += 512)
		r += buf[i];
	return r;
}

NOINLINE long above_big_frame(long n, int seed)
{
	long r = big_frame(n, seed);
	sink = r;
	return r + 1;
}

static void on_usr1(int sig)
{
	(void)sig;
	sink = leaf(work_units);
}

NOINLINE void in_handler(long n)
{
	work_units = n;
	raise(SIGUSR1);
}

#define WINDOW 256	/* words of the callers' frames overwritten */
static uint64_t saved[WINDOW];
static uint64_t seed = 12345;	/* not on the stack it overwrites */

/* Overwrites the WINDOW words above its own frame (its return address,
 * the callers' saved registers and return addresses) with random ones,
 * works, and puts them back: a stack a sample may find smashed. */
NOINLINE __attribute__((optimize("no-omit-frame-pointer"))) void smashed(long n)
{
	uint64_t *frame = __builtin_frame_address(0);
	uint64_t near = (uint64_t)(uintptr_t)frame, code = (uint64_t)(uintptr_t)leaf;

	for (int i = 0; i < WINDOW; i++)
		saved[i] = ((volatile uint64_t *)frame)[i];
	for (int i = 0; i < WINDOW; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t r = seed >> 11;
		/* a third anything, a third near the stack, a third in code */
		((volatile uint64_t *)frame)[i] = r % 3 == 0 ? r : r % 3 == 1 ? near + (r % 4096) * 8 - 8192
								  : code + r % 8192;
	}
	sink = leaf(n);
	for (int i = 0; i < WINDOW; i++)	/* volatile: the compiler owns these slots */
		((volatile uint64_t *)frame)[i] = saved[i];
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "big";
	long rounds = argc > 2 ? atol(argv[2]) : 300;

	signal(SIGUSR1, on_usr1);
	for (long k = 0; k < rounds; k++) {
		if (!strcmp(mode, "big"))
			above_big_frame(1000000, (int)k);
		else if (!strcmp(mode, "signal"))
			in_handler(1000000);
		else if (!strcmp(mode, "smash"))
			smashed(100000);
	}
	printf("done\n");
	return 0;
}
