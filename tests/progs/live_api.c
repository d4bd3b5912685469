/*
 * The in-program API in every state: prints each call's result so the
 * test can compare them with the documented codes.  Work done while
 * capture is off (hidden) must be absent from the profile; work done
 * while on (shown) present with its exact count.  With "reset" as
 * argument it then resets, and only what follows (after_reset) remains.
 */
#include <stdio.h>

#include "callscope.h"

static volatile unsigned long sink;

__attribute__((noinline)) static void hidden(void)
{
	sink++;
}

__attribute__((noinline)) static void shown(void)
{
	sink += 2;
}

__attribute__((noinline)) static void after_reset(void)
{
	sink += 3;
}

#define SHOW(call) printf("%s %d\n", #call, call)

int main(int argc, char **argv)
{
	SHOW(callscope_enabled());
	for (int i = 0; i < 3; i++)
		hidden();		/* off under --start-stopped */
	SHOW(callscope_stop());
	SHOW(callscope_stop());
	SHOW(callscope_enabled());
	for (int i = 0; i < 5; i++)
		hidden();
	SHOW(callscope_start());
	SHOW(callscope_start());
	SHOW(callscope_enabled());
	for (int i = 0; i < 4; i++)
		shown();
	SHOW(callscope_flush());
	if (argc > 1 && argv[1][0] == 'r') {
		SHOW(callscope_reset());
		for (int i = 0; i < 6; i++)
			after_reset();
	}
	printf("strerror(-1) %s\n", callscope_strerror(-1));
	printf("strerror(-3) %s\n", callscope_strerror(CALLSCOPE_EALREADY_ON));
	printf("strerror(99) %s\n", callscope_strerror(99));
	return 0;
}
