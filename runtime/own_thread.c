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
#include <string.h>

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

/*
 * glibc ends the process (exit(0)) when the thread that ends is the last
 * one it counts, and it counts the runtime's threads too: a program whose
 * threads all end by pthread_exit, or return after the main thread's
 * pthread_exit, would live on with a thread of the runtime's alone.  That
 * thread returns when this says so, and glibc's exit(0) comes from it.
 * The leader stays a zombie member (State Z) until the process ends, so
 * "alone" is two threads, the leader a zombie.
 */
int runtime_thread_alone(void)
{
	char text[4096];
	size_t n = rt_read_small_file("/proc/self/status", text, sizeof(text) - 1);

	text[n] = '\0';
	const char *state = strstr(text, "\nState:\t");
	const char *threads = strstr(text, "\nThreads:\t");
	return state && threads && state[8] == 'Z' && threads[10] == '2' && threads[11] == '\n';
}
