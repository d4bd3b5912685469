#include "symbols/elf_funcs.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "partition.h"
#include "readfile.h"
#include "symbols/elf_symbols.h"
#include "xalloc.h"

void elf_funcs_release(struct elf_funcs *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->funcs[i].name);
	free(t->funcs);
	memset(t, 0, sizeof(*t));
}

static int by_address(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Aliases: the global name first, so it is the one kept. */
	if (x->local != y->local)
		return x->local - y->local;
	return strcmp(x->name, y->name);
}

/* What the function symbols are added to, and the .text section's index. */
struct func_reader {
	struct elf_funcs *out;
	size_t alloc;
	size_t text_index;
};

/* Adds a defined function (an IFUNC resolver too) with a name. */
static int add_func(void *ctx, const GElf_Sym *sym, const char *name)
{
	struct func_reader *r = ctx;
	int type = GELF_ST_TYPE(sym->st_info);

	if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE || !name || !*name)
		return 0;
	ALLOC_GROW(r->out->funcs, r->out->n + 1, r->alloc);
	r->out->funcs[r->out->n++] = (struct elf_func){
		.name = xstrdup(name),
		.addr = sym->st_value,
		.size = sym->st_size,
		.local = GELF_ST_BIND(sym->st_info) == STB_LOCAL,
		.in_text = r->text_index && sym->st_shndx == r->text_index,
	};
	return 0;
}

int elf_funcs_load(const char *path, struct elf_funcs *out)
{
	struct func_reader r = { out, 0, 0 };
	size_t shstrndx;
	GElf_Shdr shdr;
	int fd, rc = -1, has_symtab = 0;
	Elf *e = NULL;

	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	fd = open_regular(path);
	if (fd < 0)
		return error("cannot open '%s': %s", path, open_strerror(errno));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx) != 0) {
		error("'%s' is not an ELF file; give the program's binary", path);
		goto out;
	}

	/* Which section index is .text, and whether there is a .symtab. */
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		const char *name;
		if (!gelf_getshdr(scn, &shdr))
			continue;
		has_symtab |= shdr.sh_type == SHT_SYMTAB && shdr.sh_entsize;
		name = elf_strptr(e, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, ".text") && shdr.sh_type == SHT_PROGBITS) {
			r.text_index = elf_ndxscn(scn);
			out->text_addr = shdr.sh_addr;
			out->text_size = shdr.sh_size;
		}
	}

	/* .dynsym alone names only exported functions: not enough to lay out. */
	if (!has_symtab) {
		error("'%s' has no symbol table (.symtab); give the binary before it was stripped",
		      path);
		goto out;
	}
	elf_each_symbol(e, SHT_SYMTAB, add_func, &r);
	/* nothing to lay out or to name; a table whose data lies past the
	 * end of a damaged file reads as empty too */
	if (!out->n) {
		error("'%s' has no function in its symbol table (.symtab); give the program's "
		      "binary", path);
		goto out;
	}
	qsort(out->funcs, out->n, sizeof(*out->funcs), by_address);
	rc = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

struct elf_name_index {
	const struct elf_funcs *t;
	size_t *order;		/* function indices sorted by name, then address */
};

/* A qsort_r() comparator of function indices; the context is the table. */
static int by_name(const void *a, const void *b, void *table)
{
	const struct elf_funcs *t = table;
	const struct elf_func *x = &t->funcs[*(const size_t *)a];
	const struct elf_func *y = &t->funcs[*(const size_t *)b];
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

struct elf_name_index *elf_name_index_new(const struct elf_funcs *t)
{
	struct elf_name_index *ix = xcalloc(1, sizeof(*ix));

	ix->t = t;
	ix->order = xcalloc(t->n + 1, sizeof(*ix->order));
	for (size_t i = 0; i < t->n; i++)
		ix->order[i] = i;
	qsort_r(ix->order, t->n, sizeof(*ix->order), by_name, (void *)t);
	return ix;
}

void elf_name_index_free(struct elf_name_index *ix)
{
	if (!ix)
		return;
	free(ix->order);
	free(ix);
}

size_t elf_name_lookup(const struct elf_name_index *ix, const char *name, const size_t **first)
{
	size_t lo = PARTITION_POINT(ix->t->n, mid,
				    strcmp(ix->t->funcs[ix->order[mid]].name, name) < 0);
	size_t end = lo;
	while (end < ix->t->n && !strcmp(ix->t->funcs[ix->order[end]].name, name))
		end++;
	*first = ix->order + lo;
	return end - lo;
}

long elf_funcs_at(const struct elf_funcs *t, uint64_t addr)
{
	size_t lo = PARTITION_POINT(t->n, mid, t->funcs[mid].addr < addr);
	return lo < t->n && t->funcs[lo].addr == addr ? (long)lo : -1;
}
