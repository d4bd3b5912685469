/*
 * Writes a random C program to stdout for the gprof comparison tests:
 *
 *   gprof_gen SEED [NFUNCS]
 *
 * The same seed always gives the same program.  Functions call each other
 * along random edges (back edges make cycles, some call themselves), a
 * depth argument bounds the recursion, and each does a random amount of
 * work so the histogram has something to show.  Some functions are
 * static, some have names starting with '_', some are never called, some
 * may be inlined or cloned by the optimizer: the shapes gprof's output
 * has to cope with.
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;

static unsigned rnd(unsigned n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (unsigned)(state % n);
}

static void name(int i, int nfuncs, char *buf, size_t len)
{
	static const char *const stems[] = { "alpha", "beta", "gamma", "delta", "eps", "zeta",
					     "eta", "theta", "iota", "kappa", "lambda", "mu" };
	/* a few leading underscores and shared stems exercise gprof's name order */
	snprintf(buf, len, "%s%s_%d", i % 7 == 3 ? "_" : "", stems[(i * 5 + nfuncs) % 12], i);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: gprof_gen SEED [NFUNCS]\n");
		return 2;
	}
	state = strtoull(argv[1], NULL, 10) * 0x9E3779B97F4A7C15ull + 1;
	int nfuncs = argc > 2 ? atoi(argv[2]) : 6 + (int)rnd(10);
	if (nfuncs < 2 || nfuncs > 200)
		nfuncs = 8;
	char nm[64], callee[64];

	/* WORK bounds the run time whatever the call tree: main stops once
	 * the functions together have spun that many times */
	printf("#include <stdio.h>\n\nstatic volatile unsigned long sink;\n"
	       "static unsigned long work;\n\n");
	for (int i = 0; i < nfuncs; i++) {
		name(i, nfuncs, nm, sizeof(nm));
		printf("%svoid %s(int d);\n", i % 3 == 1 ? "static " : "", nm);
	}
	printf("\n");
	for (int i = 0; i < nfuncs; i++) {
		name(i, nfuncs, nm, sizeof(nm));
		unsigned kind = rnd(10);
		printf("%s%svoid %s(int d)\n{\n", i % 3 == 1 ? "static " : "",
		       kind < 2 ? "__attribute__((noinline)) " : "", nm);
		/* the work is inline, so each function has self time of its own */
		unsigned n = 20 + rnd(kind == 9 ? 5000 : 1000);
		printf("\twork += %uu;\n\tfor (int i = 0; i < %u; i++)\n"
		       "\t\tsink += (unsigned long)i * 2654435761u;\n", n, n);
		printf("\tif (d <= 0)\n\t\treturn;\n");
		int ncalls = 1 + (int)rnd(3);
		for (int k = 0; k < ncalls; k++) {
			/* mostly forward edges, so most functions are reached; back
			 * edges close cycles */
			unsigned to;
			if (rnd(8) == 0)
				to = (unsigned)i;	/* self-recursion */
			else if (rnd(3) == 0 || i == nfuncs - 1)
				to = rnd((unsigned)i + 1);
			else
				to = (unsigned)i + 1 + rnd((unsigned)(nfuncs - i - 1));
			name((int)to, nfuncs, callee, sizeof(callee));
			unsigned m = rnd(2) ? 1 : 2 + rnd(3);
			if (m == 1)
				printf("\t%s(d - 1);\n", callee);
			else
				printf("\tif ((d + %u) %% %u == 0)\n\t\t%s(d - 1);\n", rnd(5), m, callee);
		}
		printf("}\n\n");
	}
	int depth = 3 + (int)rnd(4);
	printf("int main(void)\n{\n\twhile (work < %uul) {\n", 150000000 + rnd(100000000));
	int roots = 1 + (int)rnd(3);
	for (int k = 0; k < roots; k++) {
		/* f0 and a few others are called from main; the last ones may be unused */
		name(k == 0 ? 0 : (int)rnd((unsigned)nfuncs), nfuncs, callee, sizeof(callee));
		printf("\t\t%s(%d);\n", callee, depth);
	}
	printf("\t}\n\tprintf(\"%%lu\\n\", (unsigned long)sink);\n\treturn 0;\n}\n");
	return 0;
}
