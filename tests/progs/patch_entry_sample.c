/*
 * A program for a debugger to time a sample by, built without hooks: it
 * writes its pid to the file named by its argument, then spins until the
 * debugger sets `attached` (some seconds of CPU at most).  The debugger stops it at
 * a timer signal of the sampler, makes it look as if the spin had just
 * called landing() (a return address pushed, the PC on landing's first
 * instruction), and lets the signal in: the sampler then sees a sample on
 * a patched entry's jump.  landing() changes nothing the spin reads.
 */
#include <stdio.h>
#include <unistd.h>

volatile int attached;
volatile long landed;

__attribute__((noinline)) void landing(void)
{
	landed++;
}

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;

	if (!f)
		return 2;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (long i = 0; !attached && i < 20000000000L; i++)
		;
	printf("%ld\n", landed);
	return 0;
}
