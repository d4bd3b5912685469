/*
 * A program for a debugger to stop in, built without hooks: it writes its
 * pid to the file named by its argument, waits (20 s at most) for the
 * debugger to set `attached`, then calls outer -> middle -> leaf ->
 * stop_here three times, `call_round` naming the time (1 to 3).
 */
#include <stdio.h>
#include <unistd.h>

volatile int attached;
/* which of the three calls of outer() runs: a debugger's breakpoint
 * reported twice for one entry (a signal came while it stepped over it)
 * names the same round twice */
volatile int call_round;

__attribute__((noinline)) void stop_here(int i)
{
	__asm__ volatile("" ::"r"(i) : "memory");
}

__attribute__((noinline)) int leaf(int i)
{
	stop_here(i);
	return i * 2;
}

__attribute__((noinline)) int middle(int i)
{
	int r = leaf(i) + 1;
	__asm__ volatile("");
	return r;
}

__attribute__((noinline)) int outer(int i)
{
	int r = middle(i) + 1;
	__asm__ volatile("");
	return r;
}

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
	int s = 0;

	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		for (int i = 0; i < 20000 && !attached; i++)
			usleep(1000);
	}
	for (int i = 0; i < 3; i++) {
		call_round = i + 1;
		s += outer(i);
	}
	printf("%d\n", s);
	return 0;
}
