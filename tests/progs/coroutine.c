/*
 * A coroutine on its own stack (makecontext/swapcontext), with known
 * counts: driver() resumes it 5 times through resume(); each time it runs
 * co_step() once, which yields back from inside the call.  A second
 * coroutine, on a stack from malloc, finishes by returning (uc_link).
 * Under -pg the suspended frames' return addresses must not lead into
 * the trampoline once the thread runs on another stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

static ucontext_t main_ctx, co_ctx, short_ctx;
static volatile int sink;

__attribute__((noinline)) void co_step(int i)
{
	sink += i;
	swapcontext(&co_ctx, &main_ctx);
}

__attribute__((noinline)) void co_body(void)
{
	for (int i = 0; i < 5; i++)
		co_step(i);
}

__attribute__((noinline)) void resume(void)
{
	swapcontext(&main_ctx, &co_ctx);
}

__attribute__((noinline)) void driver(void)
{
	for (int i = 0; i < 5; i++)
		resume();
}

__attribute__((noinline)) void short_body(void)
{
	sink += 100;
}

int main(void)
{
	static char stack[1 << 16];
	size_t short_size = 1 << 16;
	char *short_stack = malloc(short_size);

	if (!short_stack || getcontext(&co_ctx) || getcontext(&short_ctx))
		return 1;
	co_ctx.uc_stack.ss_sp = stack;
	co_ctx.uc_stack.ss_size = sizeof(stack);
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, co_body, 0);
	driver();

	short_ctx.uc_stack.ss_sp = short_stack;
	short_ctx.uc_stack.ss_size = short_size;
	short_ctx.uc_link = &main_ctx;
	makecontext(&short_ctx, short_body, 0);
	swapcontext(&main_ctx, &short_ctx);

	printf("%d\n", sink);
	free(short_stack);
	return 0;
}
