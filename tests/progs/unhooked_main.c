/*
 * unhooked_main N: spends about equal CPU time in libunhooked.so.1, a
 * library without hooks, two ways: lib_through_plt(N) through the PLT (a
 * traced library call) and lib_by_pointer(N) through a pointer from dlsym
 * (neither hooked nor called through the PLT), and little in itself.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void lib_through_plt(long n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 50000000;
	void (*by_pointer)(long) = (void (*)(long))dlsym(RTLD_DEFAULT, "lib_by_pointer");

	if (!by_pointer) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	lib_through_plt(n);
	by_pointer(n);
	printf("done\n");
	return 0;
}
