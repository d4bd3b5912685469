/*
 * dlopen_then_chdir PLUGIN DIR: loads PLUGIN (sample_plugin.c) by the
 * relative name given, moves to DIR at once, then burns its CPU in the
 * plugin's plugin_outer and exits with the plugin still loaded.  The
 * loader keeps the relative name, which no longer leads to the file from
 * DIR (gawk's tests load ../extension/.libs/filefuncs.so, then chdir).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	void (*outer)(long) = (void (*)(long))dlsym(h, "plugin_outer");
	if (!outer || chdir(argv[2]) != 0)
		return 1;
	outer(300000000);
	puts("done");
	return 0;
}
