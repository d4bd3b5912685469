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
 * frame instructions [insns, end), whose addresses are addr_size bytes;
 * its CIE's initial instructions [cie_insns, cie_end), alignment factors,
 * return address column, and whether it describes a signal frame
 * (augmentation S: the caller's PC is no return address); cie_insns is
 * NULL when the CIE has an augmentation it cannot parse. */
struct eh_fde {
	uintptr_t begin, range;
	const uint8_t *insns, *end;
	size_t addr_size;
	const uint8_t *cie_insns, *cie_end;
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra;
	int signal;
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

/* Reads the signed LEB128 at *P (inside S) into OUT and moves *P past
 * it: 0, or -1. */
HIDDEN int eh_get_sleb(const struct eh_span *s, const uint8_t **p, int64_t *out);

/* The FDE of T covering PC into OUT: 0, or -1 when none does.  Reads only
 * T's mapped memory: async-signal-safe, while the object stays loaded. */
HIDDEN int eh_fde_find(const struct eh_table *t, uintptr_t pc, struct eh_fde *out);

/* Where the function holding PC begins, as the FDE covering PC says;
 * 0 when no FDE of T covers it.  Reads only T's mapped memory:
 * async-signal-safe, while the object stays loaded. */
HIDDEN uintptr_t eh_function_start(const struct eh_table *t, uintptr_t pc);

#endif
