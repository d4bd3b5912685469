/*
 * A shared library whose hot loop calls libc through the library's own
 * PLT (strlen and abs, built -fno-builtin): its stubs must be named in
 * the library as a program's are.  Called by plt_lib_main.c.
 */
#include <stdlib.h>
#include <string.h>

long plt_lib_loop(long rounds, const char *word)
{
	long sum = 0;

	for (long i = 0; i < rounds; i++)
		/* a pointer that changes: strlen is pure, and a call with
		 * the same argument would be hoisted out of the loop */
		sum += (long)strlen(word + (i & 1)) + abs((int)(i & 0xff) - 128);
	return sum;
}
