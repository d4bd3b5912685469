/*
 * Every entry of an executable's .symtab as the file holds it, with the
 * facts about its section a symbol classifier asks (is it code?), the
 * .text section's range and bytes, and the file's DWARF.  Nothing is
 * filtered here: what counts as a function is the reader's rule (gprof's
 * classes in gprof/gprof_syms.c, for one).
 */
#ifndef CALLSCOPE_SYMBOLS_SYMTAB_ENTRIES_H
#define CALLSCOPE_SYMBOLS_SYMTAB_ENTRIES_H

#include <stddef.h>
#include <stdint.h>

struct symtab_entry {
	uint64_t value;		/* st_value: the address, in an executable */
	const char *name;	/* in the string table (see strings_end); NULL if
				 * st_name points outside it */
	uint32_t index;		/* in .symtab */
	uint16_t shndx;		/* st_shndx: SHN_UNDEF, SHN_ABS, SHN_COMMON or a section */
	unsigned char type;	/* STT_* */
	unsigned char bind;	/* STB_* */
	unsigned char in_code;	/* defined in a section of instructions (SHF_EXECINSTR) */
};

struct symtab_entries {
	struct symtab_entry *a;	/* in .symtab order */
	size_t n;
	/* the end of the string table the names lie in: a name may run up
	 * to it without a NUL in a damaged file */
	const char *strings_end;
	int ptr_size;		/* 4 or 8, from the ELF class */
	int big_endian;
	uint64_t text_lo, text_hi;	/* the first section named .text, [lo, hi) */
	void *dwarf;		/* libdw's Dwarf of the file, or NULL without DWARF */
	/* private */
	void *elf;
	void *text_scn;
	int fd;
};

/* Why symtab_entries_read() failed. */
enum symtab_entries_error {
	SYMTAB_ENTRIES_CANNOT_OPEN = -1,	/* errno says why */
	SYMTAB_ENTRIES_NOT_ELF = -2,
	SYMTAB_ENTRIES_NO_SECTION_NAMES = -3,
	SYMTAB_ENTRIES_NO_TEXT = -4,
	SYMTAB_ENTRIES_DAMAGED = -5,	/* elf_sections_lost() */
};

/*
 * Reads PATH into OUT.  Returns 0, or an enum symtab_entries_error and
 * prints nothing: the caller words the error for its command.  OUT is
 * always safe to release.
 */
int symtab_entries_read(struct symtab_entries *out, const char *path);
/* The bytes of .text (text_hi - text_lo of them), borrowed from OUT; NULL
 * when the file does not hold them whole. */
const void *symtab_entries_text_bytes(const struct symtab_entries *t);
void symtab_entries_release(struct symtab_entries *t);

#endif
