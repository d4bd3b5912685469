/*
 * Three phases calling x(): warmup 100 calls, measured 50, cooldown 30,
 * the measured/cooldown pair twice.  For the capture triggers.
 */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) void x(int i) { sink += i; }

__attribute__((noinline)) void warmup(void)
{
	for (int i = 0; i < 100; i++)
		x(i);
}

__attribute__((noinline)) void measured(void)
{
	for (int i = 0; i < 50; i++)
		x(i);
}

__attribute__((noinline)) void cooldown(void)
{
	for (int i = 0; i < 30; i++)
		x(i);
}

int main(void)
{
	warmup();
	for (int round = 0; round < 2; round++) {
		measured();
		cooldown();
	}
	printf("%d\n", sink);
	return 0;
}
