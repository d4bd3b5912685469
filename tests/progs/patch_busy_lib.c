/*
 * Two libraries for tests/progs/patch_busy.c, built without hooks from
 * this one source: -DBUSY_LOADED makes the one linked at start (a_*),
 * the default the one the program loads later with dlopen (b_*), whose
 * constructor calls into it once.
 */
#ifdef BUSY_LOADED
__attribute__((noinline)) long a_leaf(long i)
{
	return i ^ 5;
}

__attribute__((noinline)) long a_work(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += a_leaf(i);
	return s;
}
#else
__attribute__((noinline)) long b_leaf(long i)
{
	return i + 7;
}

__attribute__((noinline)) long b_work(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += b_leaf(i);
	return s;
}

static long started;

__attribute__((constructor)) static void b_start(void)
{
	started = b_work(3);
}
#endif
