/*
 * Error paths a run never takes, for graph --static: parse() is called
 * 10 times with good input, so its calls to report_error() and cleanup()
 * never run, and main never calls never_called() (which calls parse()
 * and shutdown()).  The error path also calls through a function pointer,
 * which the static graph must not guess.
 */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) void report_error(const char *m) { fprintf(stderr, "%s\n", m); }
__attribute__((noinline)) void cleanup(void) { sink++; }
__attribute__((noinline)) void shutdown_all(void) { sink++; }
__attribute__((noinline)) void via_pointer(void) { sink++; }

static void (*volatile on_error)(void) = via_pointer;

__attribute__((noinline)) int parse(int x)
{
	if (x < 0) {
		report_error("negative");
		cleanup();
		on_error();
		return -1;
	}
	return x * 2;
}

__attribute__((noinline)) int never_called(void)
{
	int r = parse(-5);
	shutdown_all();
	return r;
}

int main(int argc, char **argv)
{
	int s = 0;
	(void)argv;
	for (int i = 0; i < 10; i++)
		s += parse(i);
	if (argc > 5)
		s += never_called();
	printf("%d\n", s);
	return 0;
}
