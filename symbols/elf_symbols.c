/* Walking ELF symbol tables.  See elf_symbols.h. */
#include "symbols/elf_symbols.h"

int elf_each_symbol(Elf *elf, GElf_Word type, elf_symbol_fn *fn, void *ctx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; data && i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			int rc = fn(ctx, &sym, elf_strptr(elf, sh.sh_link, sym.st_name));
			if (rc)
				return rc;
		}
	}
	return 0;
}

struct function_filter {
	elf_symbol_fn *fn;
	void *ctx;
};

static int only_functions(void *ctx, const GElf_Sym *sym, const char *name)
{
	const struct function_filter *f = ctx;

	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF)
		return 0;
	return f->fn(f->ctx, sym, name);
}

int elf_each_function_symbol(Elf *elf, GElf_Word type, elf_symbol_fn *fn, void *ctx)
{
	struct function_filter f = { fn, ctx };

	return elf_each_symbol(elf, type, only_functions, &f);
}

int elf_sections_lost(Elf *elf)
{
	GElf_Ehdr eh;
	size_t n;

	return gelf_getehdr(elf, &eh) && eh.e_shoff && (elf_getshdrnum(elf, &n) != 0 || !n);
}
