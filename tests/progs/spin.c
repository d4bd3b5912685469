/*
 * Calls tick() forever; after the first 10000 calls prints its pid so a
 * test can kill it mid-run.
 */
#include <stdio.h>
#include <unistd.h>

static volatile long ticks;

__attribute__((noinline)) void tick(void) { ticks++; }

int main(void)
{
	for (long i = 0;; i++) {
		tick();
		if (i == 10000) {
			printf("%d\n", (int)getpid());
			fflush(stdout);
		}
	}
}
