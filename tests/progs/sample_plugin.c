/*
 * A shared object for sample_dlopen: the program loads it with dlopen,
 * spends three quarters of its CPU in plugin_hot, and closes it again.
 */
static volatile double sink;

__attribute__((noinline)) void plugin_hot(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}
