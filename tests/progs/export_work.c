/*
 * Known call counts with measurable time, for the export tests:
 * burn() ROUNDS times from work() (the bulk of the time), leaf() 5000
 * times, fact(12) recursing into itself 11 times, ping/pong calling each
 * other (a cycle: 10 calls in all per ping(9)), and one call of each
 * driver from main.  ROUNDS is argv[1] (default 300).
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void burn(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7;
}

__attribute__((noinline)) void work(int rounds)
{
	for (int i = 0; i < rounds; i++)
		burn(400000);
}

__attribute__((noinline)) int leaf(int x)
{
	sink++;
	return x * 3 + 1;
}

__attribute__((noinline)) int fact(int n)
{
	sink++;
	return n <= 1 ? 1 : n * fact(n - 1);
}

int pong(int n);

__attribute__((noinline)) int ping(int n)
{
	sink++;
	return n <= 0 ? 0 : 1 + pong(n - 1);
}

__attribute__((noinline)) int pong(int n)
{
	sink++;
	return n <= 0 ? 0 : 1 + ping(n - 1);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 300;
	long s = 0;

	work(rounds);
	for (int i = 0; i < 5000; i++)
		s += leaf(i);
	s += fact(12) + ping(9);
	printf("%ld\n", s);
	return 0;
}
