/*
 * Every function of one ELF object, named or not, with the code around it:
 * what entry patching needs to decide where it may write.  Functions come
 * from .symtab, .dynsym and the .eh_frame FDEs (the only record of a
 * stripped object's static functions), merged by start address; the
 * executable sections' bytes are kept so callers disassemble without
 * reopening the file.
 */
#ifndef CALLSCOPE_SYMBOLS_FUNCTIONS_H
#define CALLSCOPE_SYMBOLS_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

/* A function with neither frame flag has no CFI at its start, or CFI that
 * gives the CFA by an expression. */
enum elf_function_flags {
	ELF_FUNCTION_SYMBOL = 1 << 0,	/* named by .symtab or .dynsym */
	ELF_FUNCTION_FDE = 1 << 1,	/* an FDE starts here */
	ELF_FUNCTION_NO_CALLER = 1 << 2,	/* entered without a call: the entry
						 * point, a signal return, a thread's
						 * or context's first frame */
	ELF_FUNCTION_ENTRY_FRAME = 1 << 3,	/* the CFI at its start puts the CFA at
						 * rsp + 8, the return address on top:
						 * the frame a call (or a jump to a
						 * function, a tail call) leaves */
	ELF_FUNCTION_INSIDE_FRAME = 1 << 4,	/* the CFI at its start puts the CFA
						 * elsewhere (rsp + 32, say): it begins
						 * inside a frame opened before it, a
						 * part split off a function (gcc's
						 * .cold), with no return address on top */
};

struct elf_function {
	uint64_t start;		/* link-time address */
	uint64_t size;		/* the symbol's size, else the FDE's range; 0: unknown */
	const char *name;	/* NULL when only an FDE knows it; owned by the list */
	unsigned flags;		/* enum elf_function_flags */
};

/* Another name of a function: a symbol at the same start as one kept. */
struct elf_alias {
	uint64_t start;
	const char *name;	/* owned by the list */
};

/* A loaded section's bytes: code, and the read-only data that holds
 * jump tables (SHT_NOBITS ones have none). */
struct elf_code {
	uint64_t addr;
	uint64_t size;
	const uint8_t *bytes;	/* owned by the list */
	int exec;		/* SHF_EXECINSTR */
	int plt;		/* .plt, .plt.got, .plt.sec: stubs, not functions */
};

struct elf_functions {
	struct elf_function *funcs;	/* ascending start, one per address */
	size_t n;
	struct elf_code *code;		/* every SHF_ALLOC section with bytes, ascending */
	size_t ncode;
	uint8_t build_id[20];
	size_t build_id_len;		/* 0: the file has none (or a longer one) */
	int shared;			/* ET_DYN: a shared library or a PIE */
	struct elf_alias *aliases;	/* ascending start */
	size_t naliases;
	char **names;			/* the names' storage */
	size_t nnames;
};

/*
 * Reads the ELF file PATH into *OUT.  Returns 0, or -1 after printing one
 * line saying why the file cannot be read.  elf_functions_release() frees.
 */
int elf_functions_load(const char *path, struct elf_functions *out);
void elf_functions_release(struct elf_functions *f);

/*
 * The section holding [ADDR, ADDR + SIZE), or NULL.  Borrowed from F.
 */
const struct elf_code *elf_functions_code(const struct elf_functions *f, uint64_t addr,
					  uint64_t size);

/* The other names of the function at START: their number, and *FIRST. */
size_t elf_functions_aliases(const struct elf_functions *f, uint64_t start,
			     const struct elf_alias **first);

#endif
