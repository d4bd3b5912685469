/*
 * Takes the addresses of library functions and compares them with what
 * the dynamic linker says they are, as a program comparing callbacks or
 * handlers does; prints "same" or "DIFFERENT" for each.  Meanwhile calls
 * strlen N times (default 1000), a function whose address it never takes,
 * and puts, whose address it takes too: the linker then sends its calls
 * through the very GOT slot the address is read from (.plt.got).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*compare_fn)(const char *, const char *);

static const char *verdict(void *taken, const char *name)
{
	return taken == dlsym(RTLD_DEFAULT, name) ? "same" : "DIFFERENT";
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	/* volatile: the compiler keeps the loads of the addresses */
	compare_fn volatile cmp = strcmp;
	int (*volatile out)(const char *) = puts;
	size_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += strlen(argv[0] + (i & 1));	/* not hoisted out of the loop */
	printf("strcmp %s\n", verdict((void *)cmp, "strcmp"));
	printf("puts %s\n", verdict((void *)out, "puts"));
	puts(sum ? "called" : "none");
	return cmp("a", "a");
}
