/*
 * Recursion DEPTH calls deep (default 10000), for the HTML report: the
 * flame graph, the call tree and the timeline must all render it.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned long down(unsigned long n)
{
	unsigned long r;

	if (!n)
		return 0;
	r = down(n - 1) + 1;
	/* keeps the call from becoming a jump (no tail call, no loop) */
	__asm__ volatile("" : "+r"(r));
	return r;
}

int main(int argc, char **argv)
{
	unsigned long depth = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;

	printf("%lu\n", down(depth));
	return 0;
}
