/*
 * The symbol table GNU gprof builds from an executable, rebuilt from
 * its .symtab entries (symbols/symtab_entries.h) so that `callscope gprof` credits samples and calls to the same
 * functions gprof does:
 *
 *  - .symtab symbols that BFD would classify 'T' (global, in an
 *    executable section), 'W' (defined weak, not an object: even one in
 *    .data such as data_start) or 't' (local, executable section) whose
 *    name passes gprof's filter: no '$', and a '.' only as ".<digits>"
 *    (".clone." and ".constprop." are allowed before the digits).  So
 *    foo.part.0, foo.cold and foo.isra.0 are not functions: their samples
 *    and calls go to whatever symbol precedes them.
 *  - ELF sizes are ignored: a function ends where the next symbol starts;
 *    the last one ends with .text.
 *  - Symbols at the same address: the global one wins, then a function
 *    over a non-function, then a name without a leading underscore.
 *
 * gprof's name filter has a bug: after ".<digits>" at the end of a name
 * it steps over the NUL and goes on judging the next string of the
 * string table.  --compat=strict reproduces it; by default a name ends
 * where it ends.
 */
#include "gprof/gprof.h"

#include <ctype.h>
#include <errno.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "readfile.h"
#include "symbols/dwarf_source.h"
#include "symbols/elf_symbols.h"
#include "xalloc.h"

const char *gprof_symtab_keep(struct gprof_symtab *st, char *s)
{
	ALLOC_GROW(st->strings, st->nstrings + 1, st->strings_alloc);
	st->strings[st->nstrings++] = s;
	return s;
}

/*
 * gprof's test of a local name (core_sym_class).  NAME lies in a string
 * table that ends at END: the strict variant may walk past the name's
 * NUL into the following strings, as gprof does, but never past END.
 */
static int local_name_ok(const char *name, const char *end, int strict)
{
	if (!*name)
		return 0;
	for (const char *p = name; p < end && *p; ++p) {
		if (*p == '$')
			return 0;
		while (p < end && *p == '.') {
			int digit_seen = 0;
			size_t left = strnlen(p, (size_t)(end - p));
			if (left > 7 && !strncmp(p, ".clone.", 7))
				p += 6;
			else if (left > 11 && !strncmp(p, ".constprop.", 11))
				p += 10;
			for (p++; p < end && *p; p++) {
				if (digit_seen && *p == '.')
					break;
				else if (isdigit((unsigned char)*p))
					digit_seen = 1;
				else
					return 0;
			}
		}
		if (p >= end)
			break;
		if (!*p) {
			if (!strict)
				break;
			/* gprof's loop steps over this NUL into the next string */
			if (p + 1 >= end)
				break;
		}
	}
	return 1;
}

/* gprof sorts by address, then functions first, then globals first. */
static int cmp_addr(const void *a, const void *b)
{
	const struct gprof_sym *l = a, *r = b;

	if (l->addr != r->addr)
		return l->addr > r->addr ? 1 : -1;
	if (l->is_func != r->is_func)
		return (int)r->is_func - (int)l->is_func;
	if (l->is_static != r->is_static)
		return (int)l->is_static - (int)r->is_static;
	/* glibc's qsort is a stable merge sort here */
	return l->order < r->order ? -1 : l->order > r->order;
}

/*
 * symtab_finalize: sorts, drops duplicates of one address (keeping the
 * symbol gprof keeps) and sets each end address to the next start - 1.
 */
size_t gprof_symtab_finalize(struct gprof_sym *base, size_t len, uint64_t text_end)
{
	if (!len)
		return 0;
	qsort(base, len, sizeof(*base), cmp_addr);
	struct gprof_sym *dst = base;
	uint64_t prev_addr = base[0].addr - 1;
	for (struct gprof_sym *src = base; src < base + len; ++src) {
		if (src->addr == prev_addr) {
			struct gprof_sym *d = &dst[-1];
			int take = (!src->is_static && d->is_static) ||
				   (src->is_static == d->is_static &&
				    ((src->is_func && !d->is_func) ||
				     (src->is_func == d->is_func &&
				      ((src->name[0] != '_' && d->name[0] == '_') ||
				       (src->name[0] == '_' && d->name[0] == '_' &&
					src->name[1] != '_' && d->name[1] == '_')))));
			if (take)
				*d = *src;
		} else {
			if (dst > base && dst[-1].end_addr == 0)
				dst[-1].end_addr = src->addr - 1;
			if (!src->end_addr || src->addr <= src->end_addr) {
				*dst++ = *src;
				prev_addr = src->addr;
			}
		}
	}
	/* none is left when every range was empty (-l's copies of the
	 * functions keep their ends, which a damaged file may put first) */
	if (dst > base && dst[-1].end_addr == 0)
		dst[-1].end_addr = text_end - 1;
	return (size_t)(dst - base);
}

struct gprof_sym *gprof_lookup(struct gprof_sym *sym, size_t n, uint64_t address)
{
	long low, high, mid = -1;

	if (!n)
		return NULL;
	/* gprof's binary search, quirks included, so gaps answer the same */
	for (low = 0, high = (long)n - 1; low != high;) {
		mid = (high + low) / 2;
		if (sym[mid].addr <= address && sym[mid + 1].addr > address)
			return address > sym[mid].end_addr ? NULL : &sym[mid];
		if (sym[mid].addr > address)
			high = mid;
		else
			low = mid + 1;
	}
	if (sym[mid + 1].addr <= address)
		return address > sym[mid + 1].end_addr ? NULL : &sym[mid + 1];
	return NULL;
}

int gprof_src_info(struct gprof_symtab *st, uint64_t addr, const char **file, int *line,
		   const char **func)
{
	return dwarf_source_at(st->file.dwarf, addr, file, line, func);
}

int gprof_symtab_load(struct gprof_symtab *st, const char *path, const struct gprof_opts *o)
{
	memset(st, 0, sizeof(*st));
	st->path = xstrdup(path);
	switch (symtab_entries_read(&st->file, path)) {
	case 0:
		break;
	case SYMTAB_ENTRIES_CANNOT_OPEN:
		return error("cannot open '%s': %s; give the profiled program as the first "
			     "argument", path, open_strerror(errno));
	case SYMTAB_ENTRIES_NOT_ELF:
		return error("'%s' is not an executable (ELF) file; give the profiled program "
			     "before the gmon.out files", path);
	case SYMTAB_ENTRIES_DAMAGED:
		return error("'%s' is damaged: " ELF_SECTIONS_LOST "; give the profiled executable",
			     path);
	case SYMTAB_ENTRIES_NO_SECTION_NAMES:
		return error("'%s' has no section names; give an unstripped executable", path);
	default:
		return error("'%s' has no .text section; give the profiled executable", path);
	}
	const struct symtab_entries *f = &st->file;
	st->layout.ptr_size = f->ptr_size;
	st->layout.big_endian = f->big_endian;
	st->text_lo = f->text_lo;
	st->text_hi = f->text_hi;
	const void *text = o->static_calls ? symtab_entries_text_bytes(f) : NULL;
	if (text) {
		st->text = xmalloc(f->text_hi - f->text_lo);
		memcpy(st->text, text, f->text_hi - f->text_lo);
	}

	struct gprof_sym *syms = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct symtab_entry *e = &f->a[i];
		const char *name = e->name;
		if (!name)
			continue;
		/* what BFD's bfd_decode_symclass would answer, in its order */
		if (e->type == STT_SECTION || e->type == STT_FILE)
			continue;	/* BSF_DEBUGGING */
		if (o->ignore_static && e->bind == STB_LOCAL)
			continue;
		if (e->shndx == SHN_UNDEF || e->shndx == SHN_COMMON)
			continue;
		if (e->type == STT_GNU_IFUNC)
			continue;	/* 'i' */
		int is_static;
		if (e->bind == STB_WEAK) {
			if (e->type == STT_OBJECT || e->type == STT_COMMON)
				continue;	/* 'V' */
			is_static = 0;	/* 'W' counts as 'T' */
		} else if (e->bind == STB_GLOBAL || e->bind == STB_LOCAL) {
			if (e->shndx == SHN_ABS || !e->in_code)
				continue;
			is_static = e->bind == STB_LOCAL;
		} else {
			continue;	/* 'u' and others */
		}
		if (is_static) {
			if (!local_name_ok(name, f->strings_end, o->strict))
				continue;
			if (!strncmp(name, "__gnu_compiled", 14) ||
			    !strncmp(name, "___gnu_compiled", 15))
				continue;
			if (o->ignore_non_functions && e->type != STT_FUNC)
				continue;
		}
		ALLOC_GROW(syms, n + 1, alloc);
		struct gprof_sym *s = &syms[n++];
		memset(s, 0, sizeof(*s));
		s->addr = e->value;
		s->name = gprof_symtab_keep(st, xstrndup(name, strnlen(name, (size_t)(f->strings_end - name))));
		s->is_func = e->type == STT_FUNC;
		s->is_static = is_static;
		s->order = e->index;
	}
	if (!n) {
		free(syms);
		return error("'%s' has no symbols; give an executable that was not stripped", path);
	}
	for (size_t i = 0; i < n; i++) {
		const char *file;
		if (gprof_src_info(st, syms[i].addr, &file, &syms[i].line, NULL))
			syms[i].file = gprof_symtab_keep(st, xstrdup(file));
	}
	st->n = gprof_symtab_finalize(syms, n, st->text_hi);
	st->syms = syms;
	st->funcs = syms;
	st->nfuncs = st->n;
	return 0;
}

void gprof_symtab_release(struct gprof_symtab *st)
{
	if (st->funcs != st->syms)
		free(st->funcs);
	free(st->syms);
	for (size_t i = 0; i < st->nstrings; i++)
		free(st->strings[i]);
	free(st->strings);
	symtab_entries_release(&st->file);
	free(st->path);
	free(st->text);
	memset(st, 0, sizeof(*st));
}
