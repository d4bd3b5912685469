/*
 * Names for the stubs of an object's procedure linkage table: a call to
 * memcpy in a program goes through `memcpy@plt`, a few instructions no
 * symbol table covers, and a sample there should say so (as perf, gdb and
 * objdump do) rather than show an address.
 *
 * The stubs are found as binutils' synthetic symbol table finds them: in
 * the sections of a layout the x86-64 linkers write (.plt with its 16-byte
 * header, .plt.sec, .plt.got), each entry's `jmp *SLOT(%rip)` is decoded
 * and SLOT looked up among the dynamic relocations (R_X86_64_JUMP_SLOT,
 * R_X86_64_GLOB_DAT, R_X86_64_IRELATIVE), whose symbol names the stub.  An
 * entry that does not decode, or whose slot no relocation names, takes the
 * section's name (".plt"), as objdump labels it; an unknown layout yields
 * nothing rather than wrong names.
 */
#ifndef CALLSCOPE_SYMBOLS_PLT_H
#define CALLSCOPE_SYMBOLS_PLT_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct plt_symbol {
	uint64_t start;		/* link-time address of the stub */
	uint64_t size;		/* the entry's size (8 or 16), or the span's */
	char *name;		/* "memcpy@plt", or the section's name for
				 * bytes no stub name covers; owned */
};

struct plt_symbols {
	struct plt_symbol *a;	/* ascending start */
	size_t n;
};

/*
 * Reads the stubs of ELF (an x86-64 executable or shared library) into
 * *OUT; empty when it has none this reader recognises.  Every size and
 * index is checked against the file.  plt_symbols_release() frees.
 */
void plt_symbols_load(Elf *elf, struct plt_symbols *out);
void plt_symbols_release(struct plt_symbols *t);

/* The stub holding the link-time address ADDR, or NULL.  Borrowed from T. */
const struct plt_symbol *plt_symbols_lookup(const struct plt_symbols *t, uint64_t addr);

/*
 * Decodes the stub of SIZE bytes at link-time address ADDR:
 * [endbr64] [bnd] jmp *disp32(%rip).  Returns 0 with the GOT slot it jumps
 * through in *SLOT, or -1 when the bytes are something else.
 */
int plt_stub_slot(const uint8_t *entry, size_t size, uint64_t addr, uint64_t *slot);

#endif
