/* Looking a function up by name in one ELF file (triggers, symspecs). */
#ifndef CALLSCOPE_SYMBOLS_FIND_H
#define CALLSCOPE_SYMBOLS_FIND_H

#include <stdint.h>

/*
 * Finds the function NAME in the symbol tables of the ELF file PATH
 * (.symtab, else .dynsym): by its linkage name, else by its C++ name in
 * any form demangled_name_matches() accepts (the first that does).  Returns 0 with its link-time address and size
 * (at least 1), 1 if there is no such function, -1 if PATH cannot be read
 * as ELF (after printing why).
 */
int symbol_find_function(const char *path, const char *name, uint64_t *addr,
			 uint64_t *size);

#endif
