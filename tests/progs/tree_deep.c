/* down(N) recurses N deep (argv[1], default 300) and calls leaf() at the
 * bottom: a call-path tree as deep as the recursion. */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) void leaf(void) { sink++; }

__attribute__((noinline)) long down(int n)
{
	sink++;
	if (n <= 1) {
		leaf();
		return 1;
	}
	return 1 + down(n - 1);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300;
	printf("%ld\n", down(n));
	return 0;
}
