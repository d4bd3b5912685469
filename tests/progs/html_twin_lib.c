/*
 * The library half of html_twin: a static twin() of its own, handed out
 * so that the program's main calls it directly, beside the program's twin().
 */
static volatile unsigned long sink;

__attribute__((noinline)) static void twin(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i;
}

void (*lib_twin(void))(int)
{
	return twin;
}
