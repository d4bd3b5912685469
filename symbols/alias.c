#include "symbols/alias.h"

#include <stdlib.h>
#include <string.h>

#include "partition.h"
#include "xalloc.h"

struct alias {
	GElf_Addr addr;
	const char *name;	/* without a version (@GLIBC_2.2.5), owned */
};

struct alias_index {
	struct alias *v;
	size_t n, alloc;
};

static int cmp_alias(const void *a, const void *b)
{
	const struct alias *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct alias_index *build(Dwfl_Module *mod)
{
	struct alias_index *ix = xcalloc(1, sizeof(*ix));
	int n = dwfl_module_getsymtab(mod);

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		ALLOC_GROW(ix->v, ix->n + 1, ix->alloc);
		ix->v[ix->n++] = (struct alias){ addr, xstrndup(name, strcspn(name, "@")) };
	}
	if (ix->n)
		qsort(ix->v, ix->n, sizeof(*ix->v), cmp_alias);
	return ix;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

struct alias_imports {
	char **names;		/* sorted, without versions */
	size_t n, alloc;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct alias_imports *alias_imports_of(Dwfl_Module *const *mods, size_t nmods)
{
	struct alias_imports *im = xcalloc(1, sizeof(*im));

	for (size_t m = 0; m < nmods; m++) {
		int n = mods[m] ? dwfl_module_getsymtab(mods[m]) : 0;
		for (int i = 1; i < n; i++) {
			GElf_Sym sym;
			GElf_Addr addr;
			const char *name = dwfl_module_getsym_info(mods[m], i, &sym, &addr, NULL,
								   NULL, NULL);
			if (!name || !*name || sym.st_shndx != SHN_UNDEF)
				continue;
			ALLOC_GROW(im->names, im->n + 1, im->alloc);
			im->names[im->n++] = xstrndup(name, strcspn(name, "@"));
		}
	}
	if (im->n)
		qsort(im->names, im->n, sizeof(*im->names), cmp_name);
	return im;
}

void alias_imports_free(struct alias_imports *im)
{
	if (!im)
		return;
	for (size_t i = 0; i < im->n; i++)
		free(im->names[i]);
	free(im->names);
	free(im);
}

static int imported(const struct alias_imports *im, const char *name)
{
	return im && im->n && bsearch(&name, im->names, im->n, sizeof(*im->names), cmp_name);
}

/* Is A a better name than B? */
static int better(const char *a, const char *b, const struct alias_imports *im)
{
	size_t ua = underscores(a), ub = underscores(b);
	int ia = imported(im, a), ib = imported(im, b);

	if (ia != ib)
		return ia;
	if (ua != ub)
		return ua < ub;
	size_t la = strlen(a), lb = strlen(b);
	if (la != lb)
		return la < lb;
	/* the same for every address, whatever order the symbol table
	 * lists them in: a C++ class's destructor whose complete and base
	 * variants share their code is "[complete]" (D1 before D2), as is
	 * every other class's, not one or the other */
	return strcmp(a, b) < 0;
}

const char *alias_preferred(struct alias_index **index, Dwfl_Module *mod, GElf_Addr addr,
			    const char *name, const struct alias_imports *imports)
{
	struct alias_index *ix;
	size_t lo;

	if (!*index)
		*index = build(mod);
	ix = *index;
	lo = PARTITION_POINT(ix->n, mid, ix->v[mid].addr < addr);
	if (lo == ix->n || ix->v[lo].addr != addr)
		return name;
	name = ix->v[lo].name;
	for (; lo < ix->n && ix->v[lo].addr == addr; lo++)
		if (better(ix->v[lo].name, name, imports))
			name = ix->v[lo].name;
	return name;
}

void alias_index_free(struct alias_index *index)
{
	if (!index)
		return;
	for (size_t i = 0; i < index->n; i++)
		free((char *)index->v[i].name);
	free(index->v);
	free(index);
}
