/*
 * Mutual recursion: is_even/is_odd form a cycle; ping/pong another, reached
 * from main through drive().  Counts: is_even(20) makes 11 is_even and 10
 * is_odd calls; drive() makes ping/pong 4 calls each per round, 3 rounds.
 */
#include <stdio.h>

static volatile int visits;	/* keeps the functions from being pure */

int is_odd(int n);

__attribute__((noinline)) int is_even(int n) { visits++; return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) int is_odd(int n) { visits++; return n == 0 ? 0 : is_even(n - 1); }

int pong(int n);
__attribute__((noinline)) int ping(int n) { visits++; return n <= 0 ? 0 : 1 + pong(n - 1); }
__attribute__((noinline)) int pong(int n) { visits++; return n <= 0 ? 0 : 1 + ping(n - 1); }

__attribute__((noinline)) int drive(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += ping(7);
	return s;
}

int main(void)
{
	printf("%d %d\n", is_even(20), drive());
	return 0;
}
