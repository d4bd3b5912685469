/*
 * How many 4 KiB pages hold a given share of the instructions a program
 * executed inside its binary: a measure of how tightly the hot code is
 * packed that no cache geometry or code offset moves much.
 *
 * The counts are per function (cachegrind's), so each function's
 * instructions are spread evenly over its bytes; every layout is measured
 * the same way, which is what a comparison needs.
 */
#ifndef CALLSCOPE_OPTIMIZE_PAGES_H
#define CALLSCOPE_OPTIMIZE_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "optimize/cachegrind.h"
#include "symbols/elf_funcs.h"

#define PAGE_BYTES 4096

struct page_count {
	size_t pages;		/* pages that hold FRACTION of the instructions */
	size_t touched;		/* pages with any executed instruction */
	uint64_t ir;		/* instructions executed in the binary's functions */
};

/* Counts the pages of BINARY that hold FRACTION (0..1] of R's instructions. */
void pages_count(const struct elf_funcs *binary, const struct cg_result *r, double fraction,
		 struct page_count *out);

/* The binary function with the most instructions in R, or -1. */
long pages_hottest(const struct elf_funcs *binary, const struct cg_result *r);

#endif
