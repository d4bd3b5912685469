/* Looking a function up by name in one ELF file (triggers, symspecs). */
#ifndef CALLSCOPE_SYMBOLS_FIND_H
#define CALLSCOPE_SYMBOLS_FIND_H

#include <gelf.h>
#include <stdint.h>

/*
 * Calls FN for each defined function symbol of ELF's tables of TYPE
 * (SHT_SYMTAB or SHT_DYNSYM), with its name (borrowed from ELF, may be
 * NULL), until FN returns nonzero, which is returned.
 */
int elf_each_function_symbol(Elf *elf, GElf_Word type,
			     int (*fn)(void *ctx, const GElf_Sym *sym, const char *name),
			     void *ctx);

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
