/*
 * Built with lto_inlined_work.c by clang -flto -pg: the link-time
 * optimizer inlines work() into main's loop and keeps work's call to
 * mcount there.  ping() and pong(), kept out of line, tail-call each
 * other: true tail calls beside the inlined hooks.  Prints the sums.
 */
#include <stdio.h>
#include <stdlib.h>

int work(int x);
double ping(int n, double x);

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;

	for (int i = 0; i < n; i++)
		s += work(i);
	printf("%d %.17g\n", s, ping(n, 0.25));
	return 0;
}
