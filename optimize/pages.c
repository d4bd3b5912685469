#include "optimize/pages.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Span of the binary's code in pages, so an array can index them. */
#define PAGES_MAX_SPAN (1u << 20)	/* 4 GiB of code */

static int by_count_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

/*
 * Adds the instructions of F to the pages of the binary functions of its
 * name, evenly over their bytes, and to *IR.
 */
static void spread(const struct elf_funcs *binary, const struct elf_name_index *ix,
		   const struct cg_func *f, double *pages, uint64_t base, size_t npages,
		   uint64_t *ir)
{
	const size_t *first;
	size_t n = elf_name_lookup(ix, f->name, &first);
	uint64_t total = 0;

	if (!n || !f->ir)
		return;
	/* Static functions of several files may share a name: split by size. */
	for (size_t k = 0; k < n; k++)
		total += binary->funcs[first[k]].size ? binary->funcs[first[k]].size : 1;
	*ir += f->ir;
	for (size_t k = 0; k < n; k++) {
		const struct elf_func *e = &binary->funcs[first[k]];
		uint64_t size = e->size ? e->size : 1;
		double count = (double)f->ir * (double)size / (double)total;
		for (uint64_t a = e->addr; a < e->addr + size;) {
			uint64_t page_end = (a / PAGE_BYTES + 1) * PAGE_BYTES;
			uint64_t stop = page_end < e->addr + size ? page_end : e->addr + size;
			size_t p = (size_t)((a - base) / PAGE_BYTES);
			if (a >= base && p < npages)
				pages[p] += count * (double)(stop - a) / (double)size;
			a = stop;
		}
	}
}

void pages_count(const struct elf_funcs *binary, const struct cg_result *r, double fraction,
		 struct page_count *out)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < binary->n; i++) {
		const struct elf_func *e = &binary->funcs[i];
		if (e->addr < lo)
			lo = e->addr;
		if (e->addr + (e->size ? e->size : 1) > hi)
			hi = e->addr + (e->size ? e->size : 1);
	}
	if (lo >= hi)
		return;
	uint64_t base = lo / PAGE_BYTES * PAGE_BYTES;
	uint64_t span = (hi - base + PAGE_BYTES - 1) / PAGE_BYTES;
	size_t npages = span > PAGES_MAX_SPAN ? PAGES_MAX_SPAN : (size_t)span;
	double *pages = xcalloc(npages, sizeof(*pages));
	struct elf_name_index *ix = elf_name_index_new(binary);

	for (size_t i = 0; i < r->nfuncs; i++)
		spread(binary, ix, &r->funcs[i], pages, base, npages, &out->ir);
	qsort(pages, npages, sizeof(*pages), by_count_desc);
	double goal = fraction * (double)out->ir, sum = 0;
	for (size_t i = 0; i < npages && pages[i] > 0; i++) {
		out->touched++;
		if (sum < goal) {
			sum += pages[i];
			out->pages++;
		}
	}
	elf_name_index_free(ix);
	free(pages);
}

long pages_hottest(const struct elf_funcs *binary, const struct cg_result *r)
{
	struct elf_name_index *ix = elf_name_index_new(binary);
	uint64_t best_ir = 0;
	long best = -1;

	for (size_t i = 0; i < r->nfuncs; i++) {
		const size_t *first;
		if (r->funcs[i].ir > best_ir && elf_name_lookup(ix, r->funcs[i].name, &first) == 1) {
			best_ir = r->funcs[i].ir;
			best = (long)first[0];
		}
	}
	elf_name_index_free(ix);
	return best;
}
