/*
 * libcall_loops N: the same short step called N times from two loops,
 * lib_loop through the PLT into libcall_loops_lib.c (library calls),
 * own_loop as a function of its own (compiler hooks), then tiny_work
 * once in the library.  Known counts: tiny_step and own_step N each,
 * lib_loop, own_loop and tiny_work 1.  "libcall_loops N kill" then ends
 * by SIGKILL, as a process stopped from outside would.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tiny_step(int x);
int tiny_work(int n);

__attribute__((noinline)) int own_step(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int lib_loop(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += tiny_step(i);
	return s;
}

__attribute__((noinline)) int own_loop(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += own_step(i);
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;

	printf("%d %d %d\n", lib_loop(n), own_loop(n), tiny_work(1000));
	if (argc > 2 && strcmp(argv[2], "kill") == 0) {
		fflush(stdout);
		raise(SIGKILL);
	}
	return 0;
}
