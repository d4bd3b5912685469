/*
 * sample_dlopen PLUGIN [live]: loads PLUGIN (sample_plugin.c) with dlopen
 * and waits 0.4 s (the runtime notices a load within a quarter second).
 * Then it burns 75 % of its CPU in the plugin's plugin_outer/plugin_hot
 * and 25 % in own_work, closes the plugin before it ends (so the plugin
 * is gone at exit), and prints "closed RC" with dlclose's result.  With
 * "live" it calls the plugin until the file "quit" appears instead.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	void (*outer)(long) = (void (*)(long))dlsym(h, "plugin_outer");
	if (!outer)
		return 1;
	usleep(400000);
	if (argc > 2 && !strcmp(argv[2], "live")) {
		while (access("quit", F_OK) != 0)
			outer(1000000);
		return 0;
	}
	outer(300000000);
	own_work(100000000);
	printf("closed %d\n", dlclose(h));
	return 0;
}
