#include "symbols/functions.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <stdbool.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "partition.h"
#include "readfile.h"
#include "symbols/fde_table.h"
#include "symbols/elf_symbols.h"
#include "xalloc.h"

/* rsp, in the x86-64 DWARF register numbering */
#define DWARF_RSP 7

struct builder {
	struct elf_functions *out;
	size_t alloc;
	size_t names_alloc;
};

static void add(struct builder *b, uint64_t start, uint64_t size, const char *name,
		unsigned flags)
{
	struct elf_functions *f = b->out;

	ALLOC_GROW(f->funcs, f->n + 1, b->alloc);
	const char *kept = NULL;
	if (name && *name) {
		ALLOC_GROW(f->names, f->nnames + 1, b->names_alloc);
		kept = f->names[f->nnames++] = xstrdup(name);
	}
	f->funcs[f->n++] = (struct elf_function){ start, size, kept, flags };
}

static int add_symbol(void *ctx, const GElf_Sym *sym, const char *name)
{
	if (sym->st_value)
		add(ctx, sym->st_value, sym->st_size, name, ELF_FUNCTION_SYMBOL);
	return 0;
}

/*
 * Whether the CFI at the entry of FRAME's function says it has no caller:
 * a signal frame (the kernel enters it: __restore_rt), or a return address
 * marked undefined (an outermost frame: _start, a thread's or a context's
 * first function).
 */
static int no_caller(Dwarf_Frame *frame)
{
	Dwarf_Addr lo, hi;
	bool signal = false;
	int ra = dwarf_frame_info(frame, &lo, &hi, &signal);
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;

	if (ra < 0)
		return 0;
	if (signal)
		return 1;
	return dwarf_frame_register(frame, ra, ops_mem, &ops, &nops) == 0 && nops == 0 &&
	       ops == ops_mem;
}

/*
 * What the CFI at the entry of FRAME's function says of how it is entered
 * (enum elf_function_flags): without a call (no_caller()), with the frame
 * a call or a tail call leaves, or inside a frame opened before it.  The
 * CFA is one DWARF operation when it is a register plus an offset.
 */
static unsigned entry_frame(Dwarf_Frame *frame)
{
	Dwarf_Op *ops;
	size_t nops;

	if (no_caller(frame))
		return ELF_FUNCTION_NO_CALLER;
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1)
		return 0;
	uint64_t reg;
	int64_t offset;
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		offset = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		offset = (int64_t)ops[0].number;
	} else {
		return 0;
	}
	return reg == DWARF_RSP && offset == 8 ? ELF_FUNCTION_ENTRY_FRAME
					       : ELF_FUNCTION_INSIDE_FRAME;
}

/*
 * The end of the FDE starting at START, before NEXT (the next FDE's start):
 * libdw hands out one row of the CFI table at a time, so the rows are
 * walked until no FDE covers the address.
 */
static uint64_t fde_end(Dwarf_CFI *cfi, uint64_t start, uint64_t next)
{
	uint64_t at = start;

	while (cfi && at < next) {
		Dwarf_Frame *frame;
		Dwarf_Addr lo, hi;
		if (dwarf_cfi_addrframe(cfi, at, &frame) != 0)
			break;
		int ok = dwarf_frame_info(frame, &lo, &hi, NULL) >= 0 && hi > at;
		free(frame);
		if (!ok)
			break;
		at = hi;
	}
	return at < next ? at : next;
}

/* The FDEs' starts from .eh_frame_hdr, each with the range its FDE
 * covers (the table alone would stretch a function over the padding
 * after it). */
static void add_fdes(Elf *elf, Dwarf_CFI *cfi, struct builder *b)
{
	struct fde_table t;

	fde_table_load(elf, &t);
	for (size_t i = 0; i < t.n; i++) {
		uint64_t next = i + 1 < t.n ? t.starts[i + 1] : t.end;
		add(b, t.starts[i], fde_end(cfi, t.starts[i], next) - t.starts[i], NULL,
		    ELF_FUNCTION_FDE);
	}
	fde_table_release(&t);
}

/* Marks every function, named or not, with what the CFI covering its
 * start says of its entry (entry_frame()). */
static void mark_entries(Dwarf_CFI *cfi, struct elf_functions *f)
{
	for (size_t i = 0; cfi && i < f->n; i++) {
		Dwarf_Frame *frame;
		if (dwarf_cfi_addrframe(cfi, f->funcs[i].start, &frame) != 0)
			continue;
		f->funcs[i].flags |= entry_frame(frame);
		free(frame);
	}
}

static void add_code(Elf *elf, struct elf_functions *f)
{
	size_t shstrndx, alloc = 0;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size != sh.sh_size)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		ALLOC_GROW(f->code, f->ncode + 1, alloc);
		uint8_t *bytes = xmalloc(sh.sh_size);
		memcpy(bytes, d->d_buf, sh.sh_size);
		f->code[f->ncode++] = (struct elf_code){
			sh.sh_addr, sh.sh_size, bytes, !!(sh.sh_flags & SHF_EXECINSTR),
			name && !strncmp(name, ".plt", 4)
		};
	}
}

static int by_start(const void *a, const void *b)
{
	const struct elf_function *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* the named first, so the merge below keeps a name */
	return (y->name != NULL) - (x->name != NULL);
}

static int code_by_addr(const void *a, const void *b)
{
	const struct elf_code *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One entry per start: the first name (the others kept as aliases), the
 * symbol's size before the FDE's, every source's flag. */
static void merge(struct elf_functions *f)
{
	size_t w = 0, alloc = 0;

	if (f->n)	/* an object with no symbol and no FDE has no array */
		qsort(f->funcs, f->n, sizeof(*f->funcs), by_start);
	for (size_t r = 0; r < f->n; r++) {
		struct elf_function *cur = &f->funcs[r];
		if (w && f->funcs[w - 1].start == cur->start) {
			struct elf_function *kept = &f->funcs[w - 1];
			if (!kept->size || ((cur->flags & ELF_FUNCTION_SYMBOL) &&
					    !(kept->flags & ELF_FUNCTION_SYMBOL)))
				kept->size = cur->size ? cur->size : kept->size;
			kept->flags |= cur->flags;
			if (cur->name && kept->name && strcmp(cur->name, kept->name)) {
				ALLOC_GROW(f->aliases, f->naliases + 1, alloc);
				f->aliases[f->naliases++] = (struct elf_alias){ cur->start, cur->name };
			}
			continue;
		}
		f->funcs[w++] = *cur;
	}
	f->n = w;
}

int elf_functions_load(const char *path, struct elf_functions *out)
{
	struct builder b = { out, 0, 0 };
	int fd = open_regular(path);

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return error("cannot open '%s': %s", path, open_strerror(errno));
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    eh.e_machine != EM_X86_64) {
		if (elf)
			elf_end(elf);
		close(fd);
		return error("'%s' is not an x86-64 ELF file", path);
	}
	out->shared = eh.e_type == ET_DYN;
	uint64_t entry = eh.e_entry;
	const void *id;
	ssize_t idlen = dwelf_elf_gnu_build_id(elf, &id);
	if (idlen > 0 && (size_t)idlen <= sizeof(out->build_id)) {
		memcpy(out->build_id, id, (size_t)idlen);
		out->build_id_len = (size_t)idlen;
	}
	Dwarf_CFI *cfi = dwarf_getcfi_elf(elf);
	elf_each_function_symbol(elf, SHT_SYMTAB, add_symbol, &b);
	elf_each_function_symbol(elf, SHT_DYNSYM, add_symbol, &b);
	add_fdes(elf, cfi, &b);
	add_code(elf, out);
	merge(out);
	mark_entries(cfi, out);
	if (cfi)
		dwarf_cfi_end(cfi);
	elf_end(elf);
	close(fd);
	/* the loader jumps to the program's entry point: no call */
	for (size_t i = 0; entry && i < out->n; i++)
		if (out->funcs[i].start == entry)
			out->funcs[i].flags |= ELF_FUNCTION_NO_CALLER;
	if (out->ncode)
		qsort(out->code, out->ncode, sizeof(*out->code), code_by_addr);
	return 0;
}

void elf_functions_release(struct elf_functions *f)
{
	for (size_t i = 0; i < f->nnames; i++)
		free(f->names[i]);
	for (size_t i = 0; i < f->ncode; i++)
		free((void *)f->code[i].bytes);
	free(f->names);
	free(f->aliases);
	free(f->code);
	free(f->funcs);
	memset(f, 0, sizeof(*f));
}

const struct elf_code *elf_functions_code(const struct elf_functions *f, uint64_t addr,
					  uint64_t size)
{
	for (size_t i = 0; i < f->ncode; i++) {
		const struct elf_code *c = &f->code[i];
		if (addr >= c->addr && addr - c->addr < c->size && c->size - (addr - c->addr) >= size)
			return c;
	}
	return NULL;
}

size_t elf_functions_aliases(const struct elf_functions *f, uint64_t start,
			     const struct elf_alias **first)
{
	size_t n = 0;

	size_t lo = PARTITION_POINT(f->naliases, mid, f->aliases[mid].start < start);
	*first = f->aliases + lo;
	while (lo + n < f->naliases && f->aliases[lo + n].start == start)
		n++;
	return n;
}
