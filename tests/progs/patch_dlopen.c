/*
 * Loads tests/progs/patch_plugin.c's library (named by argv[1]) while a
 * thread of its own runs in it, waits for that thread to make a few more
 * rounds, then calls plugin_once() 7 times.
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
	long (*rounds)(void) = (long (*)(void))dlsym(h, "plugin_rounds");
	long sum = 0;

	/* the library's thread runs a few rounds after the loader returned,
	 * however busy the machine (10 s at most) */
	long from = rounds();
	for (int i = 0; i < 10000 && rounds() < from + 3; i++)
		usleep(1000);

	for (int i = 0; i < 7; i++) {
		sum += once(1000);
		usleep(2000);
	}
	stop();
	printf("sum %ld\n", sum);
	return 0;
}
