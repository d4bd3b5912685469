/*
 * Spends its time in a library built without hooks
 * (tests/progs/patch_lib_link_lib.c), linked by its soname: the loader
 * names it by the link it finds (libspin.so.1), record --patch by the
 * file that link leads to (libspin.so.1.0).
 */
#include <stdio.h>
#include <stdlib.h>

long spin(long n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000000;

	printf("%ld\n", spin(n) & 1);
	return 0;
}
