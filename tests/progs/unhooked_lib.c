/* A library built without hooks for unhooked_main.c: two functions doing
 * the same work. */
volatile long unhooked_sink;

void lib_through_plt(long n)
{
	for (long i = 0; i < n; i++)
		unhooked_sink += i;
}

void lib_by_pointer(long n)
{
	for (long i = 0; i < n; i++)
		unhooked_sink += i;
}
