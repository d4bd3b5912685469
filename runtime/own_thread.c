/*
 * Threads of the runtime's own (the control socket's server, the opener of
 * the main thread's sampling event).  They are created with libc's
 * pthread_create, not the runtime's stand-in that starts sampling, with
 * every signal blocked, so the program's signals stay the program's; they
 * run only runtime and libc code, so no hook fires on them.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
				 void *);

int runtime_thread_spawn(void *(*fn)(void *), void *arg)
{
	pthread_create_fn create = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	int rc = -1;

	if (!create || pthread_attr_init(&attr) != 0)
		return -1;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	sigfillset(&all);
	/* the thread inherits this mask: it takes none of the program's signals */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = create(&thread, &attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return rc == 0 ? 0 : -1;
}
