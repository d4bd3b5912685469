/*
 * Functions the compiler inlines at -O2: -finstrument-functions still
 * calls their hooks, from inside the caller's frame.  top (not inlined)
 * runs the inlined mid, which runs the inlined leaf twice; fib is
 * recursive, and gcc inlines it into itself a few levels deep.
 *   top 1000, mid 1000, leaf 2000, fib(15) 1973 calls (2 * F(16) - 1)
 */
#include <stdio.h>

static int leaf(int x)
{
	return x * 3 + 1;
}

static int mid(int x)
{
	return leaf(x) + leaf(x + 1);
}

__attribute__((noinline)) int top(int x)
{
	return mid(x) + 1;
}

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 1000; i++)
		s += top(i);
	printf("%d %d\n", s, fib(15));
	return 0;
}
