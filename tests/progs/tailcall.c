/*
 * Every shape of tail call an optimizing compiler makes, for comparing
 * callscope's arcs with callgrind's:
 *
 *   top -> middle -> leaf          middle ends in `return leaf(x)` (a jmp)
 *   chain_a -> chain_b -> chain_c  a chain of tail calls
 *   ping <-> pong                  mutual tail recursion, DEPTH deep
 *   dispatch -> ops[i]             an indirect tail call (jmp *%reg)
 *   sometimes -> leaf              a tail call on odd inputs only
 *   jumper -> thrower              a tail call into a function that
 *                                  longjmps out of both; after_jump()
 *                                  must then be called by run_round
 *
 * usage: tailcall [ROUNDS [DEPTH]]   (defaults 1000 and 1000)
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

static volatile int sink;
static jmp_buf env;

NOINLINE int leaf(int x)
{
	sink += x;
	return x * 3 + 1;
}

NOINLINE int middle(int x)
{
	sink++;
	return leaf(x + 1);
}

NOINLINE int top(int x)
{
	return middle(x) + 1;
}

NOINLINE int chain_c(int x)
{
	sink += 2;
	return x ^ 0x55;
}

NOINLINE int chain_b(int x)
{
	sink++;
	return chain_c(x + 2);
}

NOINLINE int chain_a(int x)
{
	sink++;
	return chain_b(x * 2);
}

int pong(int n);

NOINLINE int ping(int n)
{
	sink++;
	if (n <= 0)
		return sink;
	return pong(n - 1);
}

NOINLINE int pong(int n)
{
	sink--;
	if (n <= 0)
		return sink;
	return ping(n - 1);
}

NOINLINE int op_add(int x) { sink++; return x + 7; }
NOINLINE int op_mul(int x) { sink++; return x * 7; }
NOINLINE int op_neg(int x) { sink++; return -x; }

static int (*const ops[])(int) = { op_add, op_mul, op_neg };

NOINLINE int dispatch(unsigned i, int x)
{
	sink++;
	return ops[i % 3](x);
}

NOINLINE int sometimes(int x)
{
	if (x & 1)
		return leaf(x);
	return leaf(x) * 5 + sink;
}

/* returns when X is negative, so that it is no noreturn function and
 * jumper may reach it by a jump */
NOINLINE void thrower(int x)
{
	sink += x;
	if (x >= 0)
		longjmp(env, 1);
}

NOINLINE void jumper(int x)
{
	sink++;
	thrower(x + 1);
}

NOINLINE void after_jump(void)
{
	sink++;
}

NOINLINE void run_round(int i)
{
	if (setjmp(env) == 0)
		jumper(i);
	after_jump();
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	int depth = argc > 2 ? atoi(argv[2]) : 1000;
	long s = 0;

	for (int i = 0; i < rounds; i++) {
		s += top(i);
		s += chain_a(i);
		s += dispatch((unsigned)i, i);
		s += sometimes(i);
	}
	for (int i = 0; i < 10; i++)
		s += ping(depth + i);
	for (int i = 0; i < 50; i++)
		run_round(i);
	printf("%ld\n", s + sink);
	return 0;
}
