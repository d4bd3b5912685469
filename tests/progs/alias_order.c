/*
 * Two functions with two names each, of one length, as a C++
 * destructor's complete and base variants (D1, D2) share their code:
 * at_a2's alias at_a1 is declared after it, at_b1's alias at_b2 before
 * it.  main calls each three times.
 */
#include <stdio.h>

__attribute__((noinline)) int at_a2(int x)
{
	__asm__ volatile("" ::"r"(x));
	return x + 1;
}
int at_a1(int) __attribute__((alias("at_a2")));

int at_b1(int) __attribute__((alias("at_b2")));
__attribute__((noinline)) int at_b2(int x)
{
	__asm__ volatile("" ::"r"(x));
	return x + 2;
}

int main(void)
{
	int s = 0;

	for (int i = 0; i < 3; i++)
		s += at_a2(i) + at_b2(i);
	printf("%d\n", s);
	return 0;
}
