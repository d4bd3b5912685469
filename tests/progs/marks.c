/*
 * Marks through the public header, with or without the runtime loaded.
 * With an argument, capture is first stopped and started again, and a
 * mark and a task switch come right after the start, before any hook.
 */
#include <stdio.h>

#include "callscope.h"

__attribute__((noinline)) void phase_one(void) { callscope_mark(7); }
__attribute__((noinline)) void phase_two(void) { callscope_mark_str("phase \"2\""); }

__attribute__((noinline)) void while_stopped(void) { puts("stopped"); }

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		callscope_stop();
		while_stopped();
		callscope_start();
		callscope_mark(9);
		callscope_task(43);
	}
	phase_one();
	callscope_task(42);
	phase_two();
	puts("done");
	return 0;
}
