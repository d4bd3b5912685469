/*
 * Runs the hot loop of the shared library plt_lib.c.
 * Usage: plt_lib_main ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>

long plt_lib_loop(long rounds, const char *word);

int main(int argc, char **argv)
{
	printf("%ld\n", plt_lib_loop(argc > 1 ? strtol(argv[1], NULL, 10) : 1000, "ab"));
	return 0;
}
