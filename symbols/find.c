#include "symbols/find.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"
#include "symbols/demangle.h"
#include "symbols/elf_symbols.h"

/* Whether the symbol S is the function NAME: its linkage name, or with
 * DEMANGLED its C++ name (symbols/demangle.h says which forms). */
static int is_named(const char *s, const char *name, int demangled)
{
	if (!demangled)
		return !strcmp(s, name);
	char *shown = demangle_symbol(s);
	int yes = shown && demangled_name_matches(s, shown, name);
	free(shown);
	return yes;
}

struct search {
	const char *name;
	int demangled;
	uint64_t *addr, *size;
};

static int check_symbol(void *ctx, const GElf_Sym *sym, const char *s)
{
	struct search *q = ctx;

	if (!s || !is_named(s, q->name, q->demangled))
		return 0;
	*q->addr = sym->st_value;
	*q->size = sym->st_size ? sym->st_size : 1;
	return 1;
}

static int search_table(Elf *elf, GElf_Word type, const char *name, int demangled,
			uint64_t *addr, uint64_t *size)
{
	struct search q = { name, demangled, addr, size };
	return !elf_each_function_symbol(elf, type, check_symbol, &q);
}

int symbol_find_function(const char *path, const char *name, uint64_t *addr,
			 uint64_t *size)
{
	int fd = open_regular(path);
	int rc;

	if (fd < 0)
		return error("cannot open '%s': %s", path, open_strerror(errno));
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return error("'%s' is not an ELF file", path);
	}
	/* a linkage name first: a C++ name is the slower, looser match */
	rc = 1;
	for (int demangled = 0; rc && demangled < 2; demangled++) {
		rc = search_table(elf, SHT_SYMTAB, name, demangled, addr, size);
		if (rc)
			rc = search_table(elf, SHT_DYNSYM, name, demangled, addr, size);
	}
	elf_end(elf);
	close(fd);
	return rc;
}
