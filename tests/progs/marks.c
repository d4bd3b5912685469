/* Marks through the public header, with or without the runtime loaded. */
#include <stdio.h>

#include "callscope.h"

__attribute__((noinline)) void phase_one(void) { callscope_mark(7); }
__attribute__((noinline)) void phase_two(void) { callscope_mark_str("phase \"2\""); }

int main(void)
{
	phase_one();
	callscope_task(42);
	phase_two();
	puts("done");
	return 0;
}
