/*
 * A plain program (no hooks) for record --pid: hot_loop takes about ten
 * times the CPU of cold_loop.  It runs until the file "quit" appears or
 * for at most about a minute.
 */
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void hot_loop(void)
{
	for (int i = 0; i < 3000000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) void cold_loop(void)
{
	for (int i = 0; i < 300000; i++)
		sink += (unsigned long)i;
}

int main(void)
{
	for (int k = 0; k < 20000; k++) {
		hot_loop();
		cold_loop();
		if (access("quit", F_OK) == 0)
			return 0;
	}
	return 0;
}
