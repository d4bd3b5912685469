/*
 * A few calls, then a wait: prints its pid once the calls are made, and
 * exits when its input ends, so that a test can look at the running
 * process (its mappings) in between.
 *
 *   calls_then_wait N   N calls of step(), whose result it checks
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int step(int x)
{
	return x + 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	int s = 0;
	char c;

	for (int i = 0; i < n; i++)
		s = step(s);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return s == n ? 0 : 1;
}
