/*
 * tsc_read: what one read of the time-stamp counter costs on this machine,
 * the floor under trace mode's cost per call (a call reads it twice:
 * entry and exit).  Prints two figures in ns, each the fastest of many
 * batches so that an interrupt does not count:
 *
 *   alone     one `rdtsc` after another;
 *   in work   what a read adds to a batch of independent arithmetic and
 *             stores, as the hooks' own work sits around it.  A CPU that
 *             runs other instructions while the read is under way adds
 *             less than `alone`; one that holds them back (some virtual
 *             machines) adds it all, so the hooks' other work cannot hide
 *             behind the clock there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

enum { BATCHES = 40, READS = 200000, LOAD_BATCHES = 5, LOADS = 400000 };
enum { MISS_WORDS = 1 << 24 };	/* 128 MiB: far beyond any cache */

static uint64_t table[4096];

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Fastest batch of READS rounds, in ns per round: each round does a little
 * independent work and, with READ, one clock read. */
static double fastest_round(int with_work, int with_read, uint64_t *sink)
{
	double best = 1e300;
	uint64_t x = 1, sum = 0;

	for (int b = 0; b < BATCHES; b++) {
		double start = now_ns();
		for (int i = 0; i < READS; i++) {
			if (with_read)
				sum += __rdtsc();
			if (with_work)
				for (int j = 0; j < 4; j++) {
					x = x * 6364136223846793005ULL + 1;
					table[x >> 52] += x;
				}
			__asm__ volatile("" : "+r"(x), "+r"(sum));
		}
		double per_round = (now_ns() - start) / READS;
		if (per_round < best)
			best = per_round;
	}
	*sink += x + sum;
	return best;
}

/* Fastest batch of LOADS rounds of one random load each (and, with READ,
 * one clock read), in ns per round. */
static double fastest_loads(const uint64_t *words, int with_read, uint64_t *sink)
{
	double best = 1e300;
	uint64_t x = 12345, sum = 0;

	for (int b = 0; b < LOAD_BATCHES; b++) {
		double start = now_ns();
		for (int i = 0; i < LOADS; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			sum += words[(x >> 20) & (MISS_WORDS - 1)];
			if (with_read)
				sum += __rdtsc();
		}
		double per_round = (now_ns() - start) / LOADS;
		if (per_round < best)
			best = per_round;
	}
	*sink += sum;
	return best;
}

int main(void)
{
	uint64_t sink = 0;
	double alone = fastest_round(0, 1, &sink);
	double work = fastest_round(1, 0, &sink);
	double both = fastest_round(1, 1, &sink);
	uint64_t *words = malloc(MISS_WORDS * sizeof(*words));

	if (!words) {
		fprintf(stderr, "tsc_read: cannot allocate 128 MiB\n");
		return 1;
	}
	for (size_t i = 0; i < MISS_WORDS; i++)
		words[i] = i;
	double loads = fastest_loads(words, 0, &sink);
	double loads_read = fastest_loads(words, 1, &sink);

	printf("%.2f %.2f %.1f %.1f\n", alone, both - work, loads, loads_read);
	free(words);
	return sink == 42;
}
