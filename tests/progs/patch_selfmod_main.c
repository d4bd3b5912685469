/* Loads tests/progs/patch_selfmod.c's library and calls its functions. */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("libpatch_selfmod.so", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	int (*answer)(void) = (int (*)(void))dlsym(h, "selfmod_answer");
	int (*plain)(int) = (int (*)(int))dlsym(h, "selfmod_plain");
	int (*loop)(int) = (int (*)(int))dlsym(h, "selfmod_loop");
	void (*tiny)(void) = (void (*)(void))dlsym(h, "selfmod_tiny");
	int sum = 0;
	for (int i = 0; i < 5; i++) {
		sum += answer() + plain(i) + loop(i + 2);
		tiny();
	}
	printf("sum %d\n", sum);
	return 0;
}
