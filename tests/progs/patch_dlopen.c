/*
 * Loads tests/progs/patch_plugin.c's library (named by argv[1]) while a
 * thread of its own runs in it, then calls plugin_once() 7 times.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	void *h = dlopen(argc > 1 ? argv[1] : "libpatch_plugin.so", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	long (*once)(long) = (long (*)(long))dlsym(h, "plugin_once");
	void (*stop)(void) = (void (*)(void))dlsym(h, "plugin_stop");
	long sum = 0;

	for (int i = 0; i < 7; i++) {
		sum += once(1000);
		usleep(2000);
	}
	stop();
	printf("sum %ld\n", sum);
	return 0;
}
