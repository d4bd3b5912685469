/* Reading an executable's .symtab entry by entry.  See symtab_entries.h. */
#include "symbols/symtab_entries.h"

#include <errno.h>
#include <gelf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readfile.h"
#include "symbols/elf_symbols.h"
#include "xalloc.h"

/* The entries of the symbol table SYMSCN; CODE_SECT[i] says whether
 * section i holds instructions (NSECT of them). */
static void read_entries(struct symtab_entries *t, Elf *elf, Elf_Scn *symscn,
			 const unsigned char *code_sect, size_t nsect)
{
	GElf_Shdr sh;
	size_t alloc = 0;

	gelf_getshdr(symscn, &sh);
	Elf_Data *data = elf_getdata(symscn, NULL);
	Elf_Scn *strscn = elf_getscn(elf, sh.sh_link);
	Elf_Data *strdata = strscn ? elf_getdata(strscn, NULL) : NULL;
	size_t count = data && sh.sh_entsize ? data->d_size / sh.sh_entsize : 0;
	const char *strbase = strdata ? strdata->d_buf : NULL;

	if (!strbase)
		return;
	t->strings_end = strbase + strdata->d_size;
	for (size_t i = 1; i < count; i++) {
		GElf_Sym es;
		if (!gelf_getsym(data, (int)i, &es))
			continue;
		ALLOC_GROW(t->a, t->n + 1, alloc);
		t->a[t->n++] = (struct symtab_entry){
			.value = es.st_value,
			.name = es.st_name < strdata->d_size ? strbase + es.st_name : NULL,
			.index = (uint32_t)i,
			.shndx = es.st_shndx,
			.type = GELF_ST_TYPE(es.st_info),
			.bind = GELF_ST_BIND(es.st_info),
			.in_code = es.st_shndx < nsect && code_sect[es.st_shndx],
		};
	}
}

int symtab_entries_read(struct symtab_entries *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	elf_version(EV_CURRENT);
	int fd = open_regular(path);
	if (fd < 0)
		return SYMTAB_ENTRIES_CANNOT_OPEN;
	t->fd = fd;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	t->elf = elf;
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return SYMTAB_ENTRIES_NOT_ELF;
	t->ptr_size = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	t->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;

	size_t shstrndx, nsect = 0;
	if (elf_sections_lost(elf))
		return SYMTAB_ENTRIES_DAMAGED;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return SYMTAB_ENTRIES_NO_SECTION_NAMES;
	elf_getshdrnum(elf, &nsect);
	unsigned char *code_sect = xcalloc(nsect + 1, 1);
	Elf_Scn *scn = NULL, *symscn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		size_t idx = elf_ndxscn(scn);
		if (idx < nsect && (sh.sh_flags & SHF_EXECINSTR))
			code_sect[idx] = 1;
		if (name && !strcmp(name, ".text") && !t->text_scn) {
			t->text_scn = scn;
			t->text_lo = sh.sh_addr;
			t->text_hi = sh.sh_addr + sh.sh_size;
		}
		if (sh.sh_type == SHT_SYMTAB)
			symscn = scn;
	}
	if (!t->text_scn) {
		free(code_sect);
		return SYMTAB_ENTRIES_NO_TEXT;
	}
	if (symscn)
		read_entries(t, elf, symscn, code_sect, nsect);
	free(code_sect);
	t->dwarf = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	return 0;
}

const void *symtab_entries_text_bytes(const struct symtab_entries *t)
{
	GElf_Shdr sh;
	Elf_Data *d;

	if (!t->text_scn || !gelf_getshdr(t->text_scn, &sh))
		return NULL;
	d = elf_getdata(t->text_scn, NULL);
	return d && d->d_buf && d->d_size == sh.sh_size ? d->d_buf : NULL;
}

void symtab_entries_release(struct symtab_entries *t)
{
	free(t->a);
	if (t->dwarf)
		dwarf_end(t->dwarf);
	if (t->elf)
		elf_end(t->elf);
	if (t->fd >= 0)
		close(t->fd);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}
