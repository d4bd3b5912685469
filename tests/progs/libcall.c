/*
 * libcall: a program whose time goes to libraries it calls through the
 * PLT: it formats 2000 strings with snprintf (and malloc, strlen,
 * strcpy), sorts them with qsort and the callback cmp (which calls strcmp
 * once per comparison), sums sqrt and cos of 0..1999, prints one line and
 * frees all 2001 blocks.  Known counts: snprintf, strlen, strcpy, sqrt,
 * cos 2000 each; malloc and free 2001; qsort and printf 1; strcmp as many
 * as cmp.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2000

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char **v = malloc(N * sizeof(*v));
	double acc = 0;
	unsigned seed = 12345;

	for (int i = 0; i < N; i++) {
		char buf[32];
		seed = seed * 1103515245u + 12345u;
		snprintf(buf, sizeof(buf), "s%u", seed % 100000);
		v[i] = malloc(strlen(buf) + 1);
		strcpy(v[i], buf);
		acc += sqrt((double)i) + cos((double)i);
	}
	qsort(v, N, sizeof(*v), cmp);
	printf("%s %s %.3f\n", v[0], v[N - 1], acc);
	for (int i = 0; i < N; i++)
		free(v[i]);
	free(v);
	return 0;
}
