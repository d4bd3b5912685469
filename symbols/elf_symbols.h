/*
 * The one walk over an ELF file's symbol tables: every reader of symbols
 * (functions to patch, to lay out, to look up by name; the hooks a
 * program calls) goes through it, so a damaged table is read one way.
 */
#ifndef CALLSCOPE_SYMBOLS_ELF_SYMBOLS_H
#define CALLSCOPE_SYMBOLS_ELF_SYMBOLS_H

#include <gelf.h>

/* Called with a symbol and its name (borrowed from the Elf, NULL when
 * st_name is not in the string table); nonzero stops the walk. */
typedef int elf_symbol_fn(void *ctx, const GElf_Sym *sym, const char *name);

/*
 * Calls FN for each symbol of ELF's tables of TYPE (SHT_SYMTAB or
 * SHT_DYNSYM), in table order, until FN returns nonzero, which is
 * returned; 0 when it never does.
 */
int elf_each_symbol(Elf *elf, GElf_Word type, elf_symbol_fn *fn, void *ctx);

/* The same for the defined function symbols (STT_FUNC, not SHN_UNDEF). */
int elf_each_function_symbol(Elf *elf, GElf_Word type, elf_symbol_fn *fn, void *ctx);

#endif
