/*
 * How an ordering algorithm's time and memory grow with the hot functions:
 * a generated call graph of N functions laid out by ALGORITHM, the
 * algorithm alone timed (CPU time), the process's peak memory before and
 * after it, and a hash of the layout, so that two builds can be shown to
 * give the very same order.  Built and run by bench/optimize/scale.sh.
 *
 *   optimize-scale N ALGORITHM [uniform|hubs]
 *
 * uniform: every function calls three others, chosen alike, with 1 to
 *   5,000 calls each, sizes 16 to 1,515 bytes (the graphs the docs quote).
 * hubs: the same, but callees are drawn towards the low-numbered functions
 *   (a cube of a uniform draw), so a few functions are called from
 *   thousands of places, as a large C++ program's allocators, string and
 *   container code are.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "optimize/optimize.h"

static uint64_t state = 88172645463325252ull;

/* xorshift64: the same graph on every run and machine. */
static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static long peak_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* FNV-1a over the clusters' groups, in layout order. */
static uint64_t layout_hash(const struct opt_layout *l)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t c = 0; c < l->n; c++)
		for (size_t k = 0; k <= l->clusters[c].n; k++) {
			uint32_t v = k < l->clusters[c].n ? l->clusters[c].groups[k] : UINT32_MAX;
			for (int b = 0; b < 4; b++) {
				h ^= (v >> (8 * b)) & 0xff;
				h *= 1099511628211ull;
			}
		}
	return h;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4 || atol(argv[1]) < 2) {
		fprintf(stderr, "usage: optimize-scale N ALGORITHM [uniform|hubs]\n");
		return 2;
	}
	uint32_t n = (uint32_t)atol(argv[1]);
	const struct opt_algorithm *alg = opt_algorithm_find(argv[2]);
	const char *shape = argc == 4 ? argv[3] : "uniform";
	int hubs = !strcmp(shape, "hubs");
	if (!alg || (!hubs && strcmp(shape, "uniform"))) {
		fprintf(stderr, "optimize-scale: unknown algorithm '%s' or shape '%s'\n", argv[2], shape);
		return 2;
	}

	struct opt_graph *g = opt_graph_new();
	uint64_t addr = 0x1000;
	for (uint32_t i = 0; i < n; i++) {
		char name[24];
		uint64_t size = 16 + next() % 1500;
		snprintf(name, sizeof(name), "f%u", i);
		uint32_t f = opt_graph_add_func(g, name, "/bin/p", addr, size, 0);
		g->funcs[f].calls = 1 + next() % 1000;
		g->funcs[f].heat = g->funcs[f].calls;
		addr += size;
	}
	for (uint64_t i = 0; i < 3ull * n; i++) {
		uint32_t a = (uint32_t)(next() % n), b = (uint32_t)(next() % n);
		if (hubs) {
			double u = (double)(next() % 1000000) / 1e6;
			b = (uint32_t)((double)n * u * u * u);
		}
		if (a != b)
			opt_graph_add_calls(g, a, b, 1 + next() % 5000);
	}
	opt_graph_finish(g);

	struct opt_params p = { 32768 };
	struct opt_layout l;
	memset(&l, 0, sizeof(l));
	long before = peak_kib();
	double t = cpu_seconds();
	alg->run(g, &p, &l);
	t = cpu_seconds() - t;
	printf("%s %s %u %zu %zu %.3f %ld %ld %016llx\n", alg->name, shape, n, g->nedges, l.n, t,
	       before, peak_kib(), (unsigned long long)layout_hash(&l));
	opt_layout_free(&l);
	opt_graph_free(g);
	return 0;
}
