/*
 * A fixed call shape for the HTML report's browser tests: every function
 * sits on one call path only, so its total in `callscope report --json`
 * is its frame's width in the flame graph.  stage_a does about four times
 * the work of stage_b; the six tiny_* calls are far narrower than a pixel
 * and must fold into one counted box.
 */
#include <stdio.h>

static volatile unsigned long sink;

/* Inlined and never hooked: the work belongs to its caller's frame. */
static inline __attribute__((always_inline, no_instrument_function)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void stage_a_leaf(void) { spin(4000000); }
__attribute__((noinline)) void stage_b_leaf(void) { spin(2000000); }

__attribute__((noinline)) void stage_a(void)
{
	spin(12000000);
	stage_a_leaf();
	stage_a_leaf();
}

__attribute__((noinline)) void stage_b(void)
{
	spin(4000000);
	stage_b_leaf();
}

__attribute__((noinline)) void tiny_0(void) { sink++; }
__attribute__((noinline)) void tiny_1(void) { sink++; }
__attribute__((noinline)) void tiny_2(void) { sink++; }
__attribute__((noinline)) void tiny_3(void) { sink++; }
__attribute__((noinline)) void tiny_4(void) { sink++; }
__attribute__((noinline)) void tiny_5(void) { sink++; }

int main(void)
{
	stage_a();
	stage_b();
	tiny_0();
	tiny_1();
	tiny_2();
	tiny_3();
	tiny_4();
	tiny_5();
	printf("%lu\n", sink);
	return 0;
}
