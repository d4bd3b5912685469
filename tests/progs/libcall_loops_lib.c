/*
 * libcall_loops_lib: the library without hooks that libcall_loops.c
 * calls through the PLT: a step so short that its hooks' cost is most of
 * what a call measures, and a loop long enough that no figure taken off
 * it holds it at 0.
 */
int tiny_step(int x);
int tiny_work(int n);

int tiny_step(int x)
{
	return x * 3 + 1;
}

int tiny_work(int n)
{
	volatile int s = 0;

	for (int i = 0; i < n; i++)
		s += i;
	return s;
}
