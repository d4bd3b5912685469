/*
 * A program whose time is partly in a shared library of its own: built
 * with -DEXPORT_LIB as libexport.so (lib_work), and without it as the
 * program that calls lib_work() 5 times.  gprof can name only the
 * program's functions: the export tests check the warning that says so.
 */
#include <stdio.h>

#ifdef EXPORT_LIB
static volatile unsigned long lib_sink;

__attribute__((noinline)) void lib_work(int n)
{
	for (int i = 0; i < n; i++)
		lib_sink += (unsigned long)i;
}
#else
void lib_work(int n);

__attribute__((noinline)) void app_step(int i)
{
	lib_work(20000 + i);
}

int main(void)
{
	for (int i = 0; i < 5; i++)
		app_step(i);
	puts("done");
	return 0;
}
#endif
