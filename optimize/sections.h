/*
 * Where each function came from at link time: the input section that
 * holds it, and the file that section came from.  Functions that share an
 * input section (a file built without -ffunction-sections, a library
 * member) move together: the optimizer must treat them as one fixed group,
 * and the section-based order files must name the real sections (f.cold
 * lives in .text.unlikely.f, main often in .text.startup.main: names no
 * string concatenation can guess).
 *
 * Two sources:
 *   - a linker map (-Wl,-Map=FILE) from GNU ld, gold or lld: sections with
 *     their addresses in the binary, so each function is found by address;
 *   - the object files and archives themselves: sections with the names of
 *     the functions they define (symbols/object_sections.h), matched to the
 *     binary by name.
 * The map parser treats its input as hostile text: any line it does not
 * understand is skipped, and nothing is trusted until the map's symbols
 * are checked against the binary (link_map_check()).
 */
#ifndef CALLSCOPE_OPTIMIZE_SECTIONS_H
#define CALLSCOPE_OPTIMIZE_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "symbols/elf_funcs.h"
#include "symbols/object_sections.h"

struct link_section {
	char *name;		/* owned; the input section, e.g. ".text.unlikely.f" */
	char *file;		/* owned; the input file as the linker printed it:
				 * "lvm.o", "liblua.a(lvm.o)" */
	uint64_t addr, size;
};

struct link_symbol {
	char *name;		/* owned */
	uint64_t addr;
};

enum link_map_kind { LINK_MAP_GNU, LINK_MAP_LLD };

struct link_map {
	enum link_map_kind kind;
	struct link_section *sections;	/* input sections of the code output
					 * sections, sorted by address */
	size_t n, alloc;
	struct link_symbol *symbols;	/* symbols the map lists in them */
	size_t nsymbols, symbols_alloc;
};

/*
 * Parses the map text TEXT (LEN bytes, need not end in NUL).  Returns 0, or
 * -1 with a reason in ERR when nothing in it looks like a map.  OUT is
 * always safe to release.
 */
int link_map_parse(const char *text, size_t len, struct link_map *out, char *err,
		   size_t errlen);
/* Reads and parses PATH; on failure prints one line and returns -1. */
int link_map_load(const char *path, struct link_map *out);
void link_map_release(struct link_map *m);

/* The input section holding ADDR, or NULL. */
const struct link_section *link_map_find(const struct link_map *m, uint64_t addr);

/*
 * Checks that the map describes BINARY's link: every code symbol the map
 * names must be in the binary at the same address.  Returns 0, or -1 after
 * printing one line naming the first mismatch.
 */
int link_map_check(const struct link_map *m, const struct elf_funcs *binary,
		   const char *map_path, const char *binary_path);

#endif
