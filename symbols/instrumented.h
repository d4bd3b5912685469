/* Does a program carry profiling hooks, and which? */
#ifndef CALLSCOPE_SYMBOLS_INSTRUMENTED_H
#define CALLSCOPE_SYMBOLS_INSTRUMENTED_H

#include "contract.h"

/* the contract's bits, which tell the runtime the same */
enum hook_kind {
	HOOKS_MCOUNT = CONTRACT_HOOKS_MCOUNT,	/* -pg */
	HOOKS_FENTRY = CONTRACT_HOOKS_FENTRY,	/* -pg -mfentry */
	HOOKS_CYG = CONTRACT_HOOKS_CYG,		/* -finstrument-functions */
};

struct program_hooks {
	unsigned kinds;		/* enum hook_kind bits */
	int dynamic;		/* has a dynamic section and, if a PIE, a loader
				 * (PT_INTERP): the runtime can be preloaded.
				 * A -static-pie program relocates itself. */
};

/*
 * Reads the ELF file PATH.  Returns 0 with *OUT filled, or -1 after
 * printing why the file cannot be inspected (not ELF, unreadable).
 */
int program_hooks_read(const char *path, struct program_hooks *out);

/* The same, printing nothing: -2 when PATH cannot be opened (errno says
 * why), -1 when it is no ELF file. */
int program_hooks_probe(const char *path, struct program_hooks *out);

/* The enum hook_kind bit of an undefined symbol NAME (a version after
 * '@' allowed), or 0. */
unsigned program_hook_of(const char *name);

/* "-pg", "-pg -mfentry, -finstrument-functions", ...; static storage. */
const char *program_hooks_describe(unsigned kinds);

#endif
