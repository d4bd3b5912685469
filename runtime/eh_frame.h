/*
 * The call frame information a loaded object carries, read where the
 * loader mapped it: the search table PT_GNU_EH_FRAME points at
 * (.eh_frame_hdr, one entry per FDE sorted by the code's address) and the
 * CIEs and FDEs of .eh_frame it leads to.  Every read is checked against
 * the mapped segment that holds them, so a damaged table gives "not
 * found", never a fault.
 */
#ifndef CALLSCOPE_RUNTIME_EH_FRAME_H
#define CALLSCOPE_RUNTIME_EH_FRAME_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

/* A byte range the reads must stay inside. */
struct eh_span {
	const uint8_t *lo, *hi;
};

/* One object's search table; borrowed from the object's mapping. */
struct eh_table {
	struct eh_span span;	/* the mapped segment holding the table and .eh_frame */
	const uint8_t *hdr;	/* .eh_frame_hdr: data-relative pointers count from it */
	const uint8_t *entries;
	size_t count;
	uint8_t enc;		/* how the entries' two pointers are encoded */
};

/* One FDE: the code it describes, [begin, begin + range), and its call
 * frame instructions [insns, end), whose addresses are addr_size bytes. */
struct eh_fde {
	uintptr_t begin, range;
	const uint8_t *insns, *end;
	size_t addr_size;
};

/* Whether the N bytes at P lie inside S. */
HIDDEN int eh_readable(const struct eh_span *s, const uint8_t *p, size_t n);
/* Reads the unsigned LEB128 at *P (inside S) into OUT and moves *P past
 * it: 0, or -1. */
HIDDEN int eh_get_uleb(const struct eh_span *s, const uint8_t **p, uint64_t *out);

/* Finds the search table of the loaded object INFO describes into OUT:
 * 0, or -1 when it has none that can be read.  Not for a signal handler
 * (it reads the program headers the loader keeps). */
HIDDEN int eh_table_find(const struct dl_phdr_info *info, struct eh_table *out);

/* Entry I of T: where its function begins and its FDE; 0, or -1. */
HIDDEN int eh_table_entry(const struct eh_table *t, size_t i, uintptr_t *begin,
			  const uint8_t **fde);

/* Reads the FDE at FDE (inside S) into OUT: 0, or -1. */
HIDDEN int eh_fde_read(const struct eh_span *s, const uint8_t *fde, struct eh_fde *out);

/* Where the function holding PC begins, as the FDE covering PC says;
 * 0 when no FDE of T covers it.  Reads only T's mapped memory:
 * async-signal-safe, while the object stays loaded. */
HIDDEN uintptr_t eh_function_start(const struct eh_table *t, uintptr_t pc);

#endif
