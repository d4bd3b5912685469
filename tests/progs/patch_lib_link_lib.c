/* The library of tests/progs/patch_lib_link.c: one call that takes all
 * the time, in a loop of its own. */
long spin(long n)
{
	volatile long s = 0;

	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}
