/*
 * A shared object for sample_dlopen: the program loads it with dlopen and
 * spends most of its CPU in plugin_hot, called through plugin_outer and
 * plugin_mid.  plugin_hot is a leaf without a frame; the frame-pointer
 * walk then goes from plugin_mid's frame to a return address inside
 * plugin_outer, which it must know for code, before it reaches main.
 */
static volatile double sink;

__attribute__((noinline)) void plugin_hot(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

__attribute__((noinline)) void plugin_mid(long n)
{
	plugin_hot(n);
	sink += 1;
}

__attribute__((noinline)) void plugin_outer(long n)
{
	plugin_mid(n);
	sink += 1;
}
