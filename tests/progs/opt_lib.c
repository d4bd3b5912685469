/*
 * The library half of the link-order tests' program (see opt_main.c):
 * built without -ffunction-sections, so all of these share one .text
 * section: lib_cold never runs but moves with lib_hot.
 */
__attribute__((noinline)) unsigned lib_cold(unsigned x)
{
	return x * 7 + 3;
}

__attribute__((noinline)) unsigned lib_hot(unsigned x)
{
	return (x ^ (x >> 7)) * 2246822519u;
}

__attribute__((noinline)) unsigned lib_warm(unsigned x)
{
	return x + lib_cold(x >> 30);
}
