/*
 * Many functions have several names at one address (glibc's malloc and
 * __libc_malloc, snprintf and __snprintf, cos and cosf32x), and libdwfl
 * answers with any of them.  A reader wants the one the program called:
 * the name the program's objects import, when one of them does (fgetc,
 * fopen64, not getc, fopen), else the public name, which has fewer leading
 * underscores and is shorter, else the first in byte order; without the
 * version some symbol tables add (pthread_join@@GLIBC_2.34).
 */
#ifndef CALLSCOPE_SYMBOLS_ALIAS_H
#define CALLSCOPE_SYMBOLS_ALIAS_H

#include <elfutils/libdwfl.h>

struct alias_index;
struct alias_imports;

/* The preferred name among the functions of MOD at ADDR (libdwfl's
 * address), NAME if it has none better.  *INDEX is built on first use;
 * IMPORTS (may be NULL) are the names the loaded objects import. */
const char *alias_preferred(struct alias_index **index, Dwfl_Module *mod, GElf_Addr addr,
			    const char *name, const struct alias_imports *imports);
void alias_index_free(struct alias_index *index);

/* The undefined function symbols of the NMODS modules MODS (NULL ones
 * skipped). */
struct alias_imports *alias_imports_of(Dwfl_Module *const *mods, size_t nmods);
void alias_imports_free(struct alias_imports *imports);

#endif
