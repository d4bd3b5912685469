/*
 * callheavy — a workload made of calls and little else, so that the cost
 * a profiler adds to each call dominates its run time.
 *
 *   callheavy [N [M]]    fib(N) recursively (default N=30), then a tight
 *                        loop calling a tiny function M times (default
 *                        M=5000000); prints a checksum.
 *
 * Two shapes on purpose: fib is deep recursion (the shadow stack grows and
 * shrinks), the loop is a flat stream of leaf calls at one depth (the
 * cheapest possible callee, so the hooks are all that is measured).
 * noinline/noclone and the asm barriers keep every call a real call at -O2; the checksum is
 * printed so the compiler cannot drop the work.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noclone)) static unsigned long fib(unsigned n)
{
	unsigned long r;

	if (n < 2)
		return n;
	/* The barrier keeps both calls: without it GCC turns one of them into
	 * a loop (tail recursion with an accumulator) and halves the calls. */
	r = fib(n - 1) + fib(n - 2);
	__asm__ volatile("" : "+r"(r));
	return r;
}

/* The tiny leaf: a multiply and an add; the asm barrier stops GCC from
 * proving it pure and hoisting or merging calls. */
__attribute__((noinline, noclone)) static unsigned long tiny(unsigned long x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 2654435761u + 1;
}

__attribute__((noinline, noclone)) static unsigned long loop(unsigned long m)
{
	unsigned long sum = 0;

	for (unsigned long i = 0; i < m; i++)
		sum += tiny(i);
	return sum;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 30;
	unsigned long m = argc > 2 ? strtoul(argv[2], NULL, 10) : 5000000ul;
	unsigned long sum = fib(n) ^ loop(m);

	printf("callheavy fib(%u) loop(%lu) checksum %lu\n", n, m, sum);
	return 0;
}
