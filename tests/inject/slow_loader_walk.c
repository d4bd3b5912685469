/*
 * libslow_loader_walk.so: makes the runtime's walks of the loaded objects
 * from a thread other than the process's first one (the control thread's
 * look for objects loaded by dlopen, a few times a second) hold the
 * loader's lock CALLSCOPE_SLOW_LOADER_WALK_MS milliseconds longer, by a
 * sleep inside dl_iterate_phdr before its first object.  The walk itself
 * takes a microsecond or two, so a fork() landing inside one is rare; held
 * this long, a program that forks often meets one within a few hundred
 * forks, and the tests see what its child then does.  Walks of the
 * program's own and of the first thread go through as they are.
 * Preloaded (LD_PRELOAD) into a recorded program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*walk_callback)(struct dl_phdr_info *, size_t, void *);
typedef int (*walk_fn)(walk_callback, void *);

struct slowed {
	walk_callback callback;
	void *data;
	int first;
	long ms;
};

static int slow_first(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct slowed *s = arg;

	if (s->first) {
		struct timespec pause = { s->ms / 1000, (s->ms % 1000) * 1000000L };
		s->first = 0;
		nanosleep(&pause, NULL);
	}
	return s->callback(info, size, s->data);
}

/* Whether ADDR lies in the runtime (libcallscope.so). */
static int in_runtime(const void *addr)
{
	Dl_info where;

	return dladdr(addr, &where) && where.dli_fname && strstr(where.dli_fname, "libcallscope");
}

int dl_iterate_phdr(walk_callback callback, void *data)
{
	static walk_fn real;
	const char *ms = getenv("CALLSCOPE_SLOW_LOADER_WALK_MS");

	if (!real)
		real = (walk_fn)dlsym(RTLD_NEXT, "dl_iterate_phdr");
	if (!ms || gettid() == getpid() || !in_runtime((const void *)callback))
		return real(callback, data);
	struct slowed s = { callback, data, 1, atol(ms) };
	return real(slow_first, &s);
}
