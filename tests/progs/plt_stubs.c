/*
 * plt_stubs N: one loop calls lib_len N times from one place, through
 * the program's PLT, and lib_len (plt_stubs_lib.c, a library without
 * hooks) calls strlen through its own PLT: a program whose time is much
 * in the stubs of two PLTs, which perf names lib_len@plt and strlen@plt.
 */
#include <stdio.h>
#include <stdlib.h>

size_t lib_len(const char *s);

__attribute__((noinline)) size_t len_loop(long n, const char *s)
{
	size_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += lib_len(s);
	return sum;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	printf("%zu\n", len_loop(n, "x"));
	return 0;
}
