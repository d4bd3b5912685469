/* Prints the sum of backtrace()'s depths from 4 calls deep, 3 times: a
 * profiler that leaves return addresses the unwinder cannot follow
 * changes it. */
#include <execinfo.h>
#include <stdio.h>

__attribute__((noinline)) int depth_here(void)
{
	void *frames[64];
	return backtrace(frames, 64);
}

__attribute__((noinline)) int level3(int x)
{
	return depth_here() + x;
}

__attribute__((noinline)) int level2(int x)
{
	return level3(x) + 1;
}

__attribute__((noinline)) int level1(int x)
{
	return level2(x) + 1;
}

int main(void)
{
	int sum = 0;

	for (int i = 0; i < 3; i++)
		sum += level1(i);
	printf("%d\n", sum);
	return 0;
}
