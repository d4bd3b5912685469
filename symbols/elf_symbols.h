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

/*
 * Whether ELF's header places section headers that libelf could not read.
 * A truncated copy loses them first (linkers write them at the end), and
 * libelf then shows a file without sections, which every reader would
 * take for a stripped one or one without code.  Readers say so with
 * ELF_SECTIONS_LOST, the same words everywhere.
 */
int elf_sections_lost(Elf *elf);
#define ELF_SECTIONS_LOST "its section headers lie past its end (a truncated copy?)"

#endif
