/*
 * libcall_cost MODE N: N calls of one kind, to price a traced call.
 *   own  N calls of own_len(), a function of the program (hooked with -pg)
 *   lib  N calls of strlen() through the PLT (a library call)
 * Both do the same work per call, so (traced time - plain time) / N is
 * what tracing one call of that kind costs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile size_t sink;
static const char *volatile text = "callscope";

__attribute__((noinline)) size_t own_len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000000;
	int lib = argc > 1 && !strcmp(argv[1], "lib");

	for (long i = 0; i < n; i++)
		sink += lib ? strlen(text) : own_len(text);
	printf("%zu\n", sink);
	return 0;
}
