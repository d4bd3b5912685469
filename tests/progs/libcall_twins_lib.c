/*
 * libcall_twins_lib: two functions without hooks, first and second, each
 * an IFUNC whose resolver of its own picks one and the same
 * implementation, as glibc's memcpy and memmove pick one variant: two
 * symbols, two names, one address their calls jump to.
 */
typedef int step_fn(int);

static int add_one(int x)
{
	return x + 1;
}

static step_fn *pick_first(void)
{
	return add_one;
}

static step_fn *pick_second(void)
{
	return add_one;
}

int first(int x) __attribute__((ifunc("pick_first")));
int second(int x) __attribute__((ifunc("pick_second")));
