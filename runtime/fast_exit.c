/*
 * The runtime's stand-ins for _exit() and _Exit(), which end the process
 * at once, without the atexit handlers where the runtime writes the
 * process's end: every shell ends so (dash's _exit(0)), and so does many
 * a forked child, and each was shown as "did not exit normally", its
 * open calls left to the reader.  The stand-ins end the recording as
 * exit() does, then call libc's.  Not in the child of vfork (or of
 * posix_spawn, which shares memory too): its _exit() after a failed exec
 * is its own end, and the state it borrows is its parent's, whose process
 * goes on.  _exit() may be called from a signal handler, where the hooks'
 * cost cannot be measured again (it runs hooks, and the handler may have
 * interrupted one): the end keeps the measurement of the start.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <unistd.h>

typedef void (*exit_fn)(int);

/* Resolved as the runtime loads: dlsym() is no function for a signal
 * handler. */
static exit_fn real__exit, real__Exit;

__attribute__((constructor)) static void fast_exit_resolve(void)
{
	real__exit = (exit_fn)runtime_next_symbol("_exit");
	real__Exit = (exit_fn)runtime_next_symbol("_Exit");
}

static void end_recording(void)
{
	if (runtime_config.active && getpid() == runtime_config.pid)
		runtime_process_exiting(0);
}

EXPORT __attribute__((noreturn)) void _exit(int status)
{
	end_recording();
	real__exit(status);
	__builtin_unreachable();
}

EXPORT __attribute__((noreturn)) void _Exit(int status)
{
	end_recording();
	real__Exit(status);
	__builtin_unreachable();
}
