#include "lazy_library.h"

#include <dlfcn.h>
#include <pthread.h>

#include "die.h"

static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;

void *lazy_symbol(struct lazy_library *lib, const char *name)
{
	void *sym;

	/* one dlopen per library even when threads call in at once */
	pthread_mutex_lock(&lazy_lock);
	if (!lib->handle) {
		lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
		if (!lib->handle)
			die("cannot load %s: %s; install %s", lib->soname, dlerror(),
			    lib->package);
	}
	sym = dlsym(lib->handle, name);
	pthread_mutex_unlock(&lazy_lock);
	if (!sym)
		die("%s has no function '%s'; install the %s that callscope was built with",
		    lib->soname, name, lib->package);
	return sym;
}
