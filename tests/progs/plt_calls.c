/*
 * A hot loop of library calls through the program's PLT: strlen of a
 * tiny string and abs, built -fno-builtin so that both stay calls.  Much
 * of the time is in the two stubs (strlen@plt, abs@plt), which a sampled
 * report must name as objdump does.  Prints the sum so that nothing is
 * optimized away.  Usage: plt_calls ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	const char *word = argc > 2 ? argv[2] : "ab";
	long sum = 0;

	for (long i = 0; i < rounds; i++)
		/* a pointer that changes: strlen is pure, and a call with
		 * the same argument would be hoisted out of the loop */
		sum += (long)strlen(word + (i & 1)) + abs((int)(i & 0xff) - 128);
	printf("%ld\n", sum);
	return 0;
}
