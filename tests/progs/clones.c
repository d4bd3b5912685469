/*
 * A program whose release build (-O2) has pieces gcc names after their
 * function: scale.constprop.0 (a clone for the one argument value it is
 * called with; build the instrumented copy with -fno-ipa-cp and it stays
 * plain scale) and step.cold (the cold path split off step).
 *
 *   clones [N]   N steps (default 1000); prints a checksum.
 */
#include <stdio.h>
#include <stdlib.h>

static int table[256];

/* Always called with factor 3: gcc's release build clones it as
 * scale.constprop.0. */
__attribute__((noinline)) static int scale(int x, int factor)
{
	int s = 0;
	for (int i = 0; i < factor; i++)
		s += table[(x + i) & 255] + i;
	return s;
}

__attribute__((cold, noinline)) static void complain(int x)
{
	fprintf(stderr, "negative step %d\n", x);
}

/* The unlikely branch becomes the separate piece step.cold. */
__attribute__((noinline)) int step(int x)
{
	if (x < 0) {
		complain(x);
		exit(3);
	}
	return scale(x, 3) + 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
	for (int i = 0; i < 256; i++)
		table[i] = i * 7;
	for (int i = 0; i < n; i++)
		s += step(i);
	printf("%d\n", s);
	return 0;
}
