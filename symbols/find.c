#include "symbols/find.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"

static int search_table(Elf *elf, int type, const char *name, uint64_t *addr,
			uint64_t *size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != (GElf_Word)type || !sh.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; data && i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF)
				continue;
			const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name)) {
				*addr = sym.st_value;
				*size = sym.st_size ? sym.st_size : 1;
				return 0;
			}
		}
	}
	return 1;
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
	rc = search_table(elf, SHT_SYMTAB, name, addr, size);
	if (rc)
		rc = search_table(elf, SHT_DYNSYM, name, addr, size);
	elf_end(elf);
	close(fd);
	return rc;
}
