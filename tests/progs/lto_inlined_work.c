/* See lto_inlined_main.c. */
int work(int x)
{
	return x * 3 + 1;
}

double pong(int n, double x);

/* X, a double, rides in a vector register through the hooks of every
 * tail call, the first of which look their call sites up */
__attribute__((noinline)) double ping(int n, double x)
{
	return n <= 0 ? x : pong(n - 1, x * 1.5 + 1);
}

__attribute__((noinline)) double pong(int n, double x)
{
	return n <= 0 ? -x : ping(n - 1, x / 3 + 2);
}
