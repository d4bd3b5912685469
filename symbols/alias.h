/*
 * Many functions have several names at one address (glibc's malloc and
 * __libc_malloc, snprintf and __snprintf, cos and cosf32x), and libdwfl
 * answers with any of them.  A reader wants the one the program called:
 * the public name, which has fewer leading underscores and is shorter,
 * and without the version some symbol tables add (pthread_join@@GLIBC_2.34).
 */
#ifndef CALLSCOPE_SYMBOLS_ALIAS_H
#define CALLSCOPE_SYMBOLS_ALIAS_H

#include <elfutils/libdwfl.h>

struct alias_index;

/* The preferred name among the functions of MOD at ADDR (libdwfl's
 * address), NAME if it has none better.  *INDEX is built on first use. */
const char *alias_preferred(struct alias_index **index, Dwfl_Module *mod, GElf_Addr addr,
			    const char *name);
void alias_index_free(struct alias_index *index);

#endif
