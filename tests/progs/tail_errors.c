/*
 * Error paths that end in tail calls, for graph --static: check() is
 * called with good input only, so its jumps to fail() and to retry()
 * never run; give_up() is never called and jumps through a pointer,
 * which the static graph must not guess.  Built with -O2, the compiler
 * turns each "return f(...)" in tail position into a jump.
 */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) int fail(int code) { sink += code; return -code; }
__attribute__((noinline)) int retry(int x) { sink += x; return x - 1; }
__attribute__((noinline)) int log_error(int x) { sink -= x; return x; }
__attribute__((noinline)) int via_pointer(int x) { sink ^= x; return x; }

static int (*volatile on_error)(int) = via_pointer;

__attribute__((noinline)) int check(int x)
{
	if (x < 0)
		return fail(x);
	if (x > 1000) {
		log_error(x);
		return retry(x);
	}
	return x + sink;
}

__attribute__((noinline)) int give_up(int x)
{
	return on_error(x);
}

int main(int argc, char **argv)
{
	int s = 0;
	(void)argv;
	for (int i = 0; i < 10; i++)
		s += check(i);
	if (argc > 5)
		s += give_up(argc);
	printf("%d\n", s > 0);
	return 0;
}
