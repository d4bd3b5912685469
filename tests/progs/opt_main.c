/*
 * The link-order tests' program with a library: this file is built with
 * -ffunction-sections, opt_lib.c without, so the library's functions
 * share one input section (a fixed group) and must move together.
 * checked() has an unlikely branch that gcc splits off into checked.cold,
 * which lives in the section .text.unlikely.checked.
 */
#include <stdio.h>
#include <stdlib.h>

unsigned lib_hot(unsigned x);
unsigned lib_warm(unsigned x);

__attribute__((noinline)) unsigned leaf_a(unsigned x)
{
	return x * 2654435761u + 1;
}

__attribute__((noinline)) unsigned leaf_b(unsigned x)
{
	return (x >> 3) ^ (x * 40503u);
}

__attribute__((noinline, cold)) void fail(unsigned x)
{
	fprintf(stderr, "impossible %u\n", x);
	abort();
}

__attribute__((noinline)) unsigned checked(unsigned x)
{
	if (__builtin_expect(x == 0xdeadbeefu, 0)) {
		fail(x);
		return leaf_b(x) + leaf_a(x);
	}
	return leaf_a(x) ^ leaf_b(x);
}

__attribute__((noinline)) unsigned never_called(unsigned x)
{
	return x * 31 + 7;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	unsigned x = 1;

	for (int i = 0; i < n; i++) {
		x = checked(x);
		x = lib_hot(x);
		if (i % 10 == 0)
			x = lib_warm(x);
	}
	if (argc > 2)
		x = never_called(x);
	printf("%u\n", x);
	return 0;
}
