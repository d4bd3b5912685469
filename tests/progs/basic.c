/*
 * Known call counts: leaf() 1000 times from loop(), fib(15) = 1973 calls,
 * and a static function called 7 times.  Used by the end-to-end tests.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int loop(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

__attribute__((noinline)) int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) int helper_static(int x)
{
	return x ^ 0x55;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 15;
	int s = loop(1000) + fib(n);
	for (int i = 0; i < 7; i++)
		s += helper_static(i);
	printf("%d\n", s);
	return 0;
}
