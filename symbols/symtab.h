/*
 * Address -> function, source file and line, for one recorded process
 * image.  The recorded OBJECT sections say which file was mapped where
 * (load bias) and with which build ID; symtab_add_object() checks the file
 * on disk against that build ID before trusting its symbols.
 *
 * Symbols come from elfutils (libdwfl): .symtab (static functions too) or
 * .dynsym, and DWARF line tables for file:line.
 */
#ifndef CALLSCOPE_SYMBOLS_SYMTAB_H
#define CALLSCOPE_SYMBOLS_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct symtab;

/* One PT_LOAD segment as recorded: link-time vaddr and size. */
struct symtab_segment {
	uint64_t vaddr;
	uint64_t memsz;
	uint32_t flags;		/* PF_X | PF_W | PF_R */
};

struct symbol_info {
	const char *name;	/* function name; borrowed, valid until symtab_free() */
	const char *object;	/* path of the object; borrowed likewise */
	uint64_t start;		/* link-time address of the function in its object */
	uint64_t size;		/* 0 when unknown */
	const char *file;	/* source file of ADDR, or NULL; borrowed likewise */
	int line;		/* its line, or 0 */
	int in_object;		/* 1 if ADDR lies in a known object at all */
	int ifunc;		/* the symbol is an IFUNC (glibc's strlen): its code is
				 * the resolver, not what a call by that name runs */
};

/*
 * 1 if the object added as PATH calls profiling hooks (mcount,
 * __fentry__, __cyg_profile_func_enter: it was built with -pg or
 * -finstrument-functions), 0 if not or unknown.
 */
int symtab_object_has_hooks(struct symtab *st, const char *path);

/* Returns a new, empty table; free it with symtab_free(). */
struct symtab *symtab_new(void);
void symtab_free(struct symtab *st);

/*
 * Adds the object PATH mapped with LOAD_BIAS (runtime address = link-time
 * address + bias).  BUILD_ID (may be empty) is what the process saw in
 * memory.  Returns 0; or -1 after printing one warning line when the file
 * cannot be read or its build ID differs (the binary changed since the
 * run): its addresses then resolve to "object+0xOFFSET" names rather than
 * to wrong functions.  Adding the same (path, bias) twice is harmless.
 */
int symtab_add_object(struct symtab *st, const char *path, uint64_t load_bias,
		      const uint8_t *build_id, size_t build_id_len,
		      const struct symtab_segment *segs, size_t nseg);

/*
 * Resolves the runtime address ADDR.  Always fills *OUT: with the
 * containing function when one is known, else with a synthesized name
 * ("libfoo.so+0x1234", or "0x7f..." outside every object) and start = ADDR.
 * WANT_LINE asks for file:line too (slower).
 */
void symtab_lookup(struct symtab *st, uint64_t addr, int want_line,
		   struct symbol_info *out);

#endif
