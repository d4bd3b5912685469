/*
 * unhooked_main N: spends about equal CPU time in libunhooked.so.1, a
 * library without hooks, two ways: lib_through_plt through the PLT (a
 * traced library call) and lib_by_pointer through a pointer from dlsym
 * (neither hooked nor called through the PLT), and little in itself.
 *
 * The two take turns, ROUNDS times N / ROUNDS iterations each, rather than
 * one after the other: on a loaded machine the CPU time of the same work
 * can change several times over within a run (seen: 107 ms of samples for
 * the first half, 31 for the second), and taking turns lets such a change
 * fall on both alike.  A turn is a few of the test's sample periods long,
 * so the share of each does not hang on where a period's end falls.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 8

void lib_through_plt(long n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 50000000;
	void (*by_pointer)(long) = (void (*)(long))dlsym(RTLD_DEFAULT, "lib_by_pointer");

	if (!by_pointer) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < ROUNDS; i++) {
		lib_through_plt(n / ROUNDS);
		by_pointer(n / ROUNDS);
	}
	printf("done\n");
	return 0;
}
