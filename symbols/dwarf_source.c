/* Source positions as BFD answers them.  See dwarf_source.h. */
#include "symbols/dwarf_source.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdlib.h>

#include "xalloc.h"

/*
 * The compile unit that holds ADDR.  dwarf_addrdie() reads .debug_aranges,
 * which clang does not write (and elfutils before 0.189 has no fallback):
 * then each unit's own ranges are asked, as BFD does.
 */
static int cu_of(Dwarf *dbg, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dbg, addr, cu))
		return 1;
	while (dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dbg, off + hsize, cu) && dwarf_haspc(cu, addr) > 0)
			return 1;
		off = next;
	}
	return 0;
}

/*
 * FILE as BFD names it: a relative name (a unit compiled as ../src/f.c
 * in a build directory, an include directory given relative) is taken
 * from the unit's compilation directory, where gdb and addr2line find
 * it too.  Returns FILE itself, or *JOINED (malloc'd; the previous one
 * freed), so that a caller copies the name before the next call.
 */
static const char *bfd_file_name(Dwarf_Die *cu, const char *file, char **joined)
{
	Dwarf_Attribute attr;

	if (file[0] == '/')
		return file;
	const char *dir = dwarf_formstring(dwarf_attr_integrate(cu, DW_AT_comp_dir, &attr));
	if (!dir || !*dir)
		return file;
	free(*joined);
	*joined = xasprintf("%s/%s", dir, file);
	return *joined;
}

int dwarf_source_at(void *dwarf, uint64_t addr, const char **file, int *line,
		    const char **func)
{
	static char *joined;	/* the last relative name joined, see above */
	Dwarf *dbg = dwarf;
	Dwarf_Die cu;

	*file = NULL;
	*line = 0;
	if (func)
		*func = NULL;
	if (!dbg || !cu_of(dbg, addr, &cu))
		return 0;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
	if (!l)
		return 0;
	int lineno = 0;
	const char *src = dwarf_linesrc(l, NULL, NULL);
	if (dwarf_lineno(l, &lineno) != 0 || !src || !lineno)
		return 0;
	if (func) {
		/* the innermost function, an inlined one too, by the name of
		 * its abstract origin: what BFD's find_nearest_line answers */
		Dwarf_Die *scopes = NULL;
		int n = dwarf_getscopes(&cu, addr, &scopes);
		for (int i = 0; i < n; i++) {
			int tag = dwarf_tag(&scopes[i]);
			Dwarf_Attribute attr;
			if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
				continue;
			if (dwarf_attr_integrate(&scopes[i], DW_AT_name, &attr))
				*func = dwarf_formstring(&attr);
			break;
		}
		free(scopes);
	}
	*file = bfd_file_name(&cu, src, &joined);
	*line = lineno;
	return 1;
}

struct bounds {
	uint64_t *a;
	size_t n, alloc;
};

/* Where the functions and inlined calls under DIE start and end. */
static void scope_bounds(Dwarf_Die *die, struct bounds *b)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;
			while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
				ALLOC_GROW(b->a, b->n + 2, b->alloc);
				b->a[b->n++] = lo;
				b->a[b->n++] = hi;
			}
		}
		scope_bounds(&child, b);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cmp_u64(const void *l, const void *r)
{
	uint64_t a = *(const uint64_t *)l, b = *(const uint64_t *)r;
	return a < b ? -1 : a > b;
}

void dwarf_source_changes(void *dwarf, uint64_t lo, uint64_t hi,
			  void (*each)(void *ctx, uint64_t addr, const char *file, int line),
			  void *ctx)
{
	Dwarf *dbg = dwarf;
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dbg && dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nlines;
		if (!dwarf_offdie(dbg, off + hsize, &cu) ||
		    dwarf_getsrclines(&cu, &lines, &nlines) != 0) {
			off = next;
			continue;
		}
		/* BFD answers byte by byte, so a function inlined from the
		 * middle of a row changes the answer there: rows are split
		 * where a function or inlined call begins or ends */
		struct bounds b = { 0 };
		char *joined = NULL;
		scope_bounds(&cu, &b);
		/* none in the skeleton unit of split DWARF (-gsplit-dwarf),
		 * and qsort's array must not be NULL even then */
		if (b.n)
			qsort(b.a, b.n, sizeof(*b.a), cmp_u64);
		size_t bi = 0;
		for (size_t i = 0; i < nlines; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			Dwarf_Addr addr;
			int lineno = 0;
			bool end = false;
			if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &lineno) ||
			    dwarf_lineendsequence(l, &end) || end || !lineno)
				continue;
			if (addr < lo || addr >= hi)
				continue;
			/* of several rows at one address BFD answers with the
			 * last: the others cover no byte */
			Dwarf_Line *nl = i + 1 < nlines ? dwarf_onesrcline(lines, i + 1) : NULL;
			Dwarf_Addr naddr = addr;
			if (nl && (dwarf_lineaddr(nl, &naddr) || naddr == addr))
				continue;
			const char *file = dwarf_linesrc(l, NULL, NULL);
			if (!file)
				continue;
			file = bfd_file_name(&cu, file, &joined);
			each(ctx, addr, file, lineno);
			/* rows of one sequence ascend; a new sequence may not */
			while (bi > 0 && b.a[bi - 1] > addr)
				bi--;
			while (bi < b.n && b.a[bi] <= addr)
				bi++;
			for (size_t k = bi; nl && k < b.n && b.a[k] < naddr; k++)
				if (b.a[k] < hi)
					each(ctx, b.a[k], file, lineno);
		}
		free(b.a);
		free(joined);
		off = next;
	}
}
