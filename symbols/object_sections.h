/*
 * The code sections of relocatable objects (.o files and the members of
 * .a archives) with the functions each defines, read from their ELF
 * section headers and symbol tables.  The optimizer matches them to the
 * linked binary by name (optimize/sections.h): functions that share an
 * input section move together.
 */
#ifndef CALLSCOPE_SYMBOLS_OBJECT_SECTIONS_H
#define CALLSCOPE_SYMBOLS_OBJECT_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

/* A function an object file defines: where in its section, how long. */
struct object_func {
	char *name;		/* owned */
	uint64_t offset;	/* from the start of its section */
	uint64_t size;
};

/* A code section of an object file, with the functions defined in it. */
struct object_section {
	char *name;		/* owned */
	char *file;		/* owned; "x.o" or "libx.a(x.o)" */
	uint64_t size;
	struct object_func *funcs;	/* owned */
	size_t nfuncs, funcs_alloc;
};

struct object_sections {
	struct object_section *sections;
	size_t n, alloc;
};

/*
 * Adds the code sections of PATH (a relocatable object or an archive of
 * them).  Returns 0, or -1 after printing one line.
 */
int object_sections_add(struct object_sections *os, const char *path);
void object_sections_release(struct object_sections *os);

#endif
