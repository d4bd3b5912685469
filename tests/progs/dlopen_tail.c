/*
 * dlopen reached by a tail call: load() ends in `jmp dlopen@plt` at -O2
 * (with -pg; -finstrument-functions' exit hook keeps it a call), so the
 * library call shares load()'s return slot.  Then calls the plugin's
 * plugin_work (libcall_plugin.c) 4 times, which calls strlen twice each.
 */
#include <dlfcn.h>
#include <stdio.h>

__attribute__((noinline)) void *load(const char *path)
{
	return dlopen(path, RTLD_NOW);
}

int main(void)
{
	void *h = load("./libcall_plugin.so");
	void (*work)(void) = h ? (void (*)(void))dlsym(h, "plugin_work") : NULL;

	if (!work) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < 4; i++)
		work();
	return 0;
}
