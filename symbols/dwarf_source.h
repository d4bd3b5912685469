/*
 * Source positions from an executable's DWARF (libdw), answered as BFD's
 * find_nearest_line answers them, for the gprof compatibility: the line
 * of an address, the innermost function there (an inlined one too), and
 * every address where that answer may change.
 */
#ifndef CALLSCOPE_SYMBOLS_DWARF_SOURCE_H
#define CALLSCOPE_SYMBOLS_DWARF_SOURCE_H

#include <stdint.h>

/*
 * file:line of ADDR in DWARF (a libdw Dwarf, e.g. symtab_entries.dwarf);
 * with FUNC, also the innermost function there by the name of its
 * abstract origin, or NULL.  Returns 1, or 0 with *FILE NULL and *LINE 0
 * when DWARF says nothing of ADDR.  A relative file name is joined to
 * its unit's compilation directory, as BFD joins it.  Strings are
 * borrowed: *FUNC from DWARF, *FILE until the next call.
 */
int dwarf_source_at(void *dwarf, uint64_t addr, const char **file, int *line,
		    const char **func);

/*
 * Calls EACH for every address in [LO, HI) where the answer of
 * dwarf_source_at() may change: the start of each row of the line tables
 * (of several rows at one address, the last: the others cover no byte),
 * and within a row, each start and end of a function or inlined call,
 * with the row's FILE and LINE (named as above, valid during the call).
 * In line-table order, unit by unit.
 */
void dwarf_source_changes(void *dwarf, uint64_t lo, uint64_t hi,
			  void (*each)(void *ctx, uint64_t addr, const char *file, int line),
			  void *ctx);

#endif
