/*
 * A long-running caller and a short leaf it calls once per step.  The
 * caller's own work stores a kilobyte a step into a table larger than
 * the first-level caches, so that the hooks' data do not stay there
 * between calls, as in a real program (a table that needs memory would
 * make the caller's time hang on what else the machine does); the leaf compares two short strings of a small table, a few
 * bytes and a branch each, as a sort's comparison does.
 *
 * `known_split split N` times itself without any profiler, in the
 * thread's CPU time, best of nine rounds each: N steps with the leaf and
 * N steps without it; it prints the leaf's and the caller's nanoseconds
 * per step.  `known_split run N` runs the N steps once, to be traced.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BIG (512u << 10)	/* more than a core's first-level caches */
#define SMALL 4096u

static uint64_t *big;
static uint8_t small[SMALL + 64];
static volatile uint64_t sink;

__attribute__((noinline)) int leaf(uint32_t i, uint32_t j)
{
	const uint8_t *a = small + (i & (SMALL - 1)), *b = small + (j & (SMALL - 1));

	for (int k = 0; k < 16; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

/* N steps, calling the leaf in each when WITH_LEAF; its result steers
 * the next step, so it cannot be left out. */
__attribute__((noinline)) uint64_t walk(long n, int with_leaf)
{
	uint64_t sum = 0;
	uint32_t i = 1, j = 7;

	for (long s = 0; s < n; s++) {
		uint64_t *line = big + ((uint64_t)s * 128 & (BIG / 8 - 1));
		for (int k = 0; k < 128; k++)
			line[k] = sum + (uint64_t)k;
		int r = 0;
		if (with_leaf)
			r = leaf(i, j);
		else
			__asm__ volatile("" : "+r"(r));
		sum += (uint64_t)(r + 1);
		i += 13;
		j += r > 0 ? 29 : 31;
	}
	return sum;
}

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The fastest of ROUNDS runs of N steps, with the leaf into *WITH and
 * without into *WITHOUT, the two taken in turn so that a busy moment of
 * the machine slows both alike. */
static void best_of(long n, int rounds, double *with, double *without)
{
	for (int r = 0; r < 2 * rounds; r++) {
		double t0 = cpu_ns();
		sink += walk(n, r % 2 == 0);
		double t = cpu_ns() - t0, *best = r % 2 == 0 ? with : without;
		if (r < 2 || t < *best)
			*best = t;
	}
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000000;

	if (argc < 2 || (strcmp(argv[1], "split") && strcmp(argv[1], "run")) || n <= 0) {
		fprintf(stderr, "usage: known_split split|run [N]\n");
		return 2;
	}
	big = malloc(BIG);
	if (!big)
		return 1;
	memset(big, 1, BIG);
	uint32_t seed = 12345;
	for (uint32_t i = 0; i < sizeof(small); i++) {
		seed = seed * 1103515245u + 12345u;
		small[i] = "aaaaaaab"[(seed >> 16) % 8];
	}
	if (!strcmp(argv[1], "run")) {
		sink += walk(n, 1);
		return 0;
	}
	double with, without;
	best_of(n, 9, &with, &without);
	printf("%.2f %.2f\n", with > without ? (with - without) / n : 0.0, without / n);
	return 0;
}
