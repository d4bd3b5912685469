/*
 * The functions of an ELF file, straight from its symbol table: name,
 * address, size, and whether they sit in the main .text section (the
 * only code a link order can move).  For the optimizer (function sizes,
 * names that went stale), its measurement (where each function landed)
 * and the static call graph (which function a call instruction enters).
 */
#ifndef CALLSCOPE_SYMBOLS_ELF_FUNCS_H
#define CALLSCOPE_SYMBOLS_ELF_FUNCS_H

#include <stddef.h>
#include <stdint.h>

struct elf_func {
	char *name;		/* owned */
	uint64_t addr;		/* link-time address */
	uint64_t size;		/* bytes, 0 if the symbol has none */
	int local;		/* a static function: the name may repeat */
	int in_text;		/* in the output section .text */
};

struct elf_funcs {
	struct elf_func *funcs;	/* sorted by address, then name */
	size_t n;
	uint64_t text_addr, text_size;	/* the .text section, 0 if none */
};

/*
 * Reads PATH's function symbols from its .symtab into OUT.  Returns 0, or
 * -1 after printing one error line (unreadable, not ELF, stripped).
 * OUT is always safe to release.
 */
int elf_funcs_load(const char *path, struct elf_funcs *out);
void elf_funcs_release(struct elf_funcs *t);

/* The index of the first function (by name) that starts at ADDR, or -1. */
long elf_funcs_at(const struct elf_funcs *t, uint64_t addr);

/* Functions by name: static functions of several files may share one. */
struct elf_name_index;
struct elf_name_index *elf_name_index_new(const struct elf_funcs *t);
void elf_name_index_free(struct elf_name_index *ix);
/*
 * Returns how many functions are named NAME and points *FIRST at their
 * indices in the table, in address order (borrowed from the index).
 */
size_t elf_name_lookup(const struct elf_name_index *ix, const char *name,
		       const size_t **first);

#endif
