/*
 * Function starts that survive stripping: the sorted table of .eh_frame_hdr
 * (PT_GNU_EH_FRAME), one entry per FDE, that is one per function the
 * compiler described for unwinding.  A stripped object's samples are
 * grouped into functions by it, as perf and gdb name such code.
 */
#ifndef CALLSCOPE_SYMBOLS_FDE_TABLE_H
#define CALLSCOPE_SYMBOLS_FDE_TABLE_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct fde_table {
	uint64_t *starts;	/* link-time addresses, ascending; owned */
	size_t n;
	uint64_t end;		/* the end of the segment holding the code */
};

/*
 * Reads ELF's table into *OUT (empty when it has none, or one this reader
 * does not know).  Every offset is checked against the file: a damaged
 * table gives an empty one.  fde_table_release() frees it.
 */
void fde_table_load(Elf *elf, struct fde_table *out);
void fde_table_release(struct fde_table *t);

/*
 * The function holding the link-time address ADDR: its start and the
 * distance to the next function's start (or the code's end).  Returns 0,
 * or -1 when ADDR lies before every entry.
 */
int fde_table_lookup(const struct fde_table *t, uint64_t addr, uint64_t *start,
		     uint64_t *size);

#endif
