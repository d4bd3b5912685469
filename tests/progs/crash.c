/*
 * Ends in the way argv[1] says, right after calling last_call() once:
 * kill (SIGKILL itself), exit, _exit, abort, segv.  Whatever was recorded
 * up to last_call() must be in the data.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) void step(int i) { sink += i; }
__attribute__((noinline)) void last_call(void) { sink++; }

__attribute__((noinline)) void finish(const char *how)
{
	last_call();
	if (!strcmp(how, "kill"))
		kill(getpid(), SIGKILL);
	else if (!strcmp(how, "_exit"))
		_exit(7);
	else if (!strcmp(how, "abort"))
		abort();
	else if (!strcmp(how, "segv"))
		*(volatile int *)0 = 1;
	exit(5);
}

int main(int argc, char **argv)
{
	for (int i = 0; i < 100; i++)
		step(i);
	finish(argc > 1 ? argv[1] : "exit");
	return 0;
}
