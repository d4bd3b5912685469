/*
 * The symbol table GNU gprof builds from an executable, rebuilt with
 * libelf so that `callscope gprof` credits samples and calls to the same
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
#include <fcntl.h>
#include <gelf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"
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
	if (dst[-1].end_addr == 0)
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

int gprof_src_info(struct gprof_symtab *st, uint64_t addr, const char **file, int *line,
		   const char **func)
{
	Dwarf *dbg = st->dwarf;
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
	*file = src;
	*line = lineno;
	return 1;
}

int gprof_symtab_load(struct gprof_symtab *st, const char *path, const struct gprof_opts *o)
{
	memset(st, 0, sizeof(*st));
	st->fd = -1;
	st->path = xstrdup(path);
	elf_version(EV_CURRENT);
	int fd = open_regular(path);
	if (fd < 0)
		return error("cannot open '%s': %s; give the profiled program as the first "
			     "argument", path, open_strerror(errno));
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return error("'%s' is not an executable (ELF) file; give the profiled program "
			     "before the gmon.out files", path);
	}
	st->fd = fd;
	st->elf = elf;
	st->layout.ptr_size = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	st->layout.big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;

	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return error("'%s' has no section names; give an unstripped executable", path);
	Elf_Scn *scn = NULL, *symscn = NULL;
	int have_text = 0;
	size_t nsect = 0;
	elf_getshdrnum(elf, &nsect);
	unsigned char *exec_sect = xcalloc(nsect + 1, 1);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		size_t idx = elf_ndxscn(scn);
		if (idx < nsect && (sh.sh_flags & SHF_EXECINSTR))
			exec_sect[idx] = 1;
		if (name && !strcmp(name, ".text") && !have_text) {
			have_text = 1;
			st->text_lo = sh.sh_addr;
			st->text_hi = sh.sh_addr + sh.sh_size;
			Elf_Data *d = o->static_calls ? elf_getdata(scn, NULL) : NULL;
			if (d && d->d_buf && d->d_size == sh.sh_size) {
				st->text = xmalloc(d->d_size);
				memcpy(st->text, d->d_buf, d->d_size);
			}
		}
		if (sh.sh_type == SHT_SYMTAB)
			symscn = scn;
	}
	if (!have_text) {
		free(exec_sect);
		return error("'%s' has no .text section; give the profiled executable", path);
	}

	struct gprof_sym *syms = NULL;
	size_t n = 0, alloc = 0;
	if (symscn) {
		GElf_Shdr sh;
		gelf_getshdr(symscn, &sh);
		Elf_Data *data = elf_getdata(symscn, NULL);
		Elf_Scn *strscn = elf_getscn(elf, sh.sh_link);
		Elf_Data *strdata = strscn ? elf_getdata(strscn, NULL) : NULL;
		size_t count = data && sh.sh_entsize ? data->d_size / sh.sh_entsize : 0;
		const char *strbase = strdata ? strdata->d_buf : NULL;
		const char *strend = strbase ? strbase + strdata->d_size : NULL;
		for (size_t i = 1; i < count && strbase; i++) {
			GElf_Sym es;
			if (!gelf_getsym(data, (int)i, &es))
				continue;
			if (es.st_name >= strdata->d_size)
				continue;
			const char *name = strbase + es.st_name;
			int type = GELF_ST_TYPE(es.st_info), bind = GELF_ST_BIND(es.st_info);
			/* what BFD's bfd_decode_symclass would answer, in its order */
			if (type == STT_SECTION || type == STT_FILE)
				continue;	/* BSF_DEBUGGING */
			if (o->ignore_static && bind == STB_LOCAL)
				continue;
			if (es.st_shndx == SHN_UNDEF || es.st_shndx == SHN_COMMON)
				continue;
			if (type == STT_GNU_IFUNC)
				continue;	/* 'i' */
			int is_static;
			if (bind == STB_WEAK) {
				if (type == STT_OBJECT || type == STT_COMMON)
					continue;	/* 'V' */
				is_static = 0;	/* 'W' counts as 'T' */
			} else if (bind == STB_GLOBAL || bind == STB_LOCAL) {
				if (es.st_shndx == SHN_ABS || es.st_shndx >= nsect ||
				    !exec_sect[es.st_shndx])
					continue;
				is_static = bind == STB_LOCAL;
			} else {
				continue;	/* 'u' and others */
			}
			if (is_static) {
				if (!local_name_ok(name, strend, o->strict))
					continue;
				if (!strncmp(name, "__gnu_compiled", 14) ||
				    !strncmp(name, "___gnu_compiled", 15))
					continue;
				if (o->ignore_non_functions && type != STT_FUNC)
					continue;
			}
			ALLOC_GROW(syms, n + 1, alloc);
			struct gprof_sym *s = &syms[n++];
			memset(s, 0, sizeof(*s));
			s->addr = es.st_value;
			s->name = gprof_symtab_keep(st, xstrndup(name, strnlen(name, (size_t)(strend - name))));
			s->is_func = type == STT_FUNC;
			s->is_static = is_static;
			s->order = (uint32_t)i;
		}
	}
	free(exec_sect);
	if (!n) {
		free(syms);
		return error("'%s' has no symbols; give an executable that was not stripped", path);
	}
	st->dwarf = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
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
	if (st->dwarf)
		dwarf_end(st->dwarf);
	if (st->elf)
		elf_end(st->elf);
	if (st->fd >= 0)
		close(st->fd);
	free(st->path);
	free(st->text);
	memset(st, 0, sizeof(*st));
}
