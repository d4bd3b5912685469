/*
 * longjmp out of nested instrumented calls, 50 times: each round enters
 * outer -> middle -> inner and jumps from inner back into run_round, whose
 * frames stay.  After each jump after_jump() is called; the shadow stack
 * must see it as called by run_round, not by the abandoned inner.
 */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static volatile int sink;

__attribute__((noinline)) void inner(int n)
{
	sink += n;
	longjmp(env, 1);
}

__attribute__((noinline)) void middle(int n)
{
	inner(n + 1);
	sink++;
}

__attribute__((noinline)) void outer(int n)
{
	middle(n + 1);
	sink++;
}

__attribute__((noinline)) void after_jump(void)
{
	sink++;
}

__attribute__((noinline)) void run_round(int i)
{
	if (setjmp(env) == 0)
		outer(i);
	after_jump();
}

int main(void)
{
	for (int i = 0; i < 50; i++)
		run_round(i);
	printf("%d\n", sink);
	return 0;
}
