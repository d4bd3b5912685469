/* Two cycles of mutual recursion that take no measurable time, beside a
 * loop that takes it all: in gprof's call graph the cycles tie at 0. */
static volatile long sink;

static int even_a(int n);
static int odd_a(int n)
{
	return n <= 0 ? 0 : even_a(n - 1) + 1;
}
static int even_a(int n)
{
	return n <= 0 ? 0 : odd_a(n - 1) + 1;
}

static int even_b(int n);
static int odd_b(int n)
{
	return n <= 0 ? 0 : even_b(n - 1) + 1;
}
static int even_b(int n)
{
	return n <= 0 ? 0 : odd_b(n - 1) + 1;
}

static void busy(void)
{
	for (long i = 0; i < 200000000; i++)
		sink += i;
}

int main(void)
{
	sink = odd_a(5) + odd_b(8);
	busy();
	return 0;
}
