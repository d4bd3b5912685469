/*
 * sample_dlopen PLUGIN: loads PLUGIN (sample_plugin.c) with dlopen, burns
 * 75 % of its CPU in the plugin's plugin_hot and 25 % in own_work, and
 * closes the plugin before it ends, so the plugin is gone at exit.
 * Prints "closed RC" with dlclose's result.
 */
#include <dlfcn.h>
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) void own_work(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

int main(int argc, char **argv)
{
	void *h = dlopen(argc > 1 ? argv[1] : "./plugin.so", RTLD_NOW);

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	void (*hot)(long) = (void (*)(long))dlsym(h, "plugin_hot");
	if (!hot)
		return 1;
	hot(300000000);
	own_work(100000000);
	printf("closed %d\n", dlclose(h));
	return 0;
}
