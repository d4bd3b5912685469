/*
 * Ends in the way argv[1] says, right after calling last_call() once:
 * kill (SIGKILL itself), exit, _exit, abort, segv, bus (a page of a
 * mapped file past its end), fpe (integer division by zero), ill (an
 * invalid instruction).  Whatever was recorded up to last_call() must be
 * in the data.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile int sink;
static volatile int zero;

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
	else if (!strcmp(how, "bus")) {
		/* a mapping of an empty file: its first byte is past the end */
		FILE *f = tmpfile();
		volatile char *p = f ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, fileno(f), 0)
				     : MAP_FAILED;
		if (p != MAP_FAILED)
			sink += p[0];
	}
	else if (!strcmp(how, "fpe"))
		sink = sink / zero;
	else if (!strcmp(how, "ill"))
		__builtin_trap();
	exit(5);
}

int main(int argc, char **argv)
{
	for (int i = 0; i < 100; i++)
		step(i);
	finish(argc > 1 ? argv[1] : "exit");
	return 0;
}
