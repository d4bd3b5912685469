/*
 * Functions gcc -O2 splits and joins, for telling a part of a function
 * from a function:
 *
 *   refill.part.0   partial inlining: the fast path of refill() is inlined
 *                   into fast_a() and fast_b(), the slow path is a function
 *                   of its own, called (ROUNDS / 2 calls: the seed changes
 *                   every other round)
 *   tail_target     reached only by a tail call: tail_caller() ends in
 *                   `jmp tail_target` (ROUNDS calls)
 *   checked.cold    the unlikely path of checked(), moved away: it begins
 *                   inside checked()'s frame; it runs every 8th round,
 *                   and is no function
 *
 * usage: patch_parts [ROUNDS]   (default 600: a multiple of 8)
 * prints a checksum
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile int sink;
static int table[256];
static int cached = -1;

/* the fast path is small enough to inline; the loops are not */
static int refill(int seed)
{
	if (__builtin_expect(cached == seed, 1))
		return table[seed & 255];
	for (int i = 0; i < 256; i++)
		table[i] = (i * seed) ^ (i >> 3) ^ (seed << 2);
	for (int i = 1; i < 256; i++)
		table[i] += table[i - 1] * 3 + (table[i] >> 1);
	for (int i = 0; i < 256; i++)
		table[i] = (table[i] & 1) ? table[i] ^ seed : table[i] + i;
	cached = seed;
	return table[seed & 255];
}

NOINLINE int fast_a(int s)
{
	return refill(s) + 1;
}

NOINLINE int fast_b(int s)
{
	return refill(s) * 2;
}

NOINLINE int tail_target(int x)
{
	for (int i = 0; i < 100; i++)
		sink += i ^ x;
	return sink;
}

NOINLINE int tail_caller(int x)
{
	sink++;
	return tail_target(x + 1);
}

NOINLINE __attribute__((cold)) void complain(const char *what, int x)
{
	sink += (int)strlen(what) + x;
}

/* The frame holds a buffer, so the cold path starts inside it (its CFA
 * is rsp plus the frame's size, never rsp + 8). */
NOINLINE int checked(int x)
{
	char buf[64];

	for (int i = 0; i < 64; i++)
		buf[i] = (char)(x + i);
	if (__builtin_expect(x % 8 == 0, 0)) {
		complain(buf, x);
		complain("again", x);
	}
	int s = 0;
	for (int i = 0; i < 64; i++)
		s += buf[i];
	return s;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 600;
	long sum = 0;

	for (int i = 0; i < rounds; i++) {
		sum += fast_a(i / 2);
		sum += fast_b(i / 2);
		sum += tail_caller(i);
		sum += checked(i);
	}
	printf("%ld\n", sum);
	return 0;
}
