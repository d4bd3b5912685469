/* See lto_inlined_main.c. */
int work(int x)
{
	return x * 3 + 1;
}

int pong(int n);

__attribute__((noinline)) int ping(int n)
{
	return n <= 0 ? 0 : pong(n - 1);
}

__attribute__((noinline)) int pong(int n)
{
	return n <= 0 ? 1 : ping(n - 1);
}
