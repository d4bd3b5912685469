/* Reading object files' code sections.  See object_sections.h. */
#include "symbols/object_sections.h"

#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"
#include "symbols/elf_symbols.h"
#include "xalloc.h"

static struct object_section *object_section_new(struct object_sections *os, const char *name,
						 const char *file, uint64_t size)
{
	ALLOC_GROW(os->sections, os->n + 1, os->alloc);
	struct object_section *s = &os->sections[os->n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->file = xstrdup(file);
	s->size = size;
	return s;
}

/* Where a relocatable object's functions go: SLOT maps a section index
 * (NSCN of them) to 1 + its entry in OS, 0 for a section not kept. */
struct func_adder {
	struct object_sections *os;
	const size_t *slot;
	size_t nscn;
};

/* Adds a function symbol with a name to the kept section it lies in. */
static int add_func(void *ctx, const GElf_Sym *sym, const char *name)
{
	const struct func_adder *a = ctx;

	if (sym->st_shndx >= a->nscn || !a->slot[sym->st_shndx] || !name || !*name)
		return 0;
	struct object_section *s = &a->os->sections[a->slot[sym->st_shndx] - 1];
	ALLOC_GROW(s->funcs, s->nfuncs + 1, s->funcs_alloc);
	s->funcs[s->nfuncs++] = (struct object_func){ xstrdup(name), sym->st_value, sym->st_size };
	return 0;
}

/* Adds the code sections of one relocatable ELF; returns 0 or -1. */
static int add_relocatable(struct object_sections *os, Elf *e, const char *label)
{
	size_t shstrndx, nscn;
	GElf_Ehdr eh;

	if (elf_sections_lost(e))
		return error("'%s' is damaged: " ELF_SECTIONS_LOST "; give the .o or .a files the "
			     "binary was linked from", label);
	if (!gelf_getehdr(e, &eh) || eh.e_type != ET_REL || elf_getshdrstrndx(e, &shstrndx) ||
	    elf_getshdrnum(e, &nscn))
		return error("'%s' is not a relocatable object; give the .o or .a files the binary "
			     "was linked from", label);
	size_t *slot = xcalloc(nscn + 1, sizeof(*slot));	/* section index -> 1 + entry */
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *name;
		size_t idx = elf_ndxscn(scn);
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !sh.sh_size ||
		    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR) ||
		    idx >= nscn)
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name)
			continue;
		object_section_new(os, name, label, sh.sh_size);
		slot[idx] = os->n;
	}
	struct func_adder a = { os, slot, nscn };
	elf_each_function_symbol(e, SHT_SYMTAB, add_func, &a);
	free(slot);
	return 0;
}

int object_sections_add(struct object_sections *os, const char *path)
{
	int fd = open_regular(path), rc = 0;
	Elf *e;

	if (fd < 0)
		return error("cannot open '%s': %s", path, open_strerror(errno));
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_AR) {
		Elf_Cmd cmd = ELF_C_READ;
		Elf *member;
		while (!rc && (member = elf_begin(fd, cmd, e)) != NULL) {
			Elf_Arhdr *ah = elf_getarhdr(member);
			if (ah && ah->ar_name && ah->ar_name[0] != '/' && elf_kind(member) == ELF_K_ELF) {
				char *label = xasprintf("%s(%s)", path, ah->ar_name);
				rc = add_relocatable(os, member, label);
				free(label);
			}
			cmd = elf_next(member);
			elf_end(member);
		}
	} else if (e && elf_kind(e) == ELF_K_ELF) {
		rc = add_relocatable(os, e, path);
	} else {
		rc = error("'%s' is neither an object file nor an archive", path);
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

void object_sections_release(struct object_sections *os)
{
	for (size_t i = 0; i < os->n; i++) {
		struct object_section *s = &os->sections[i];
		for (size_t k = 0; k < s->nfuncs; k++)
			free(s->funcs[k].name);
		free(s->funcs);
		free(s->name);
		free(s->file);
	}
	free(os->sections);
	memset(os, 0, sizeof(*os));
}
