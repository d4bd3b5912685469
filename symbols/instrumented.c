/*
 * The hooks a program carries show as undefined references in its symbol
 * tables: mcount (or _mcount) for -pg, __fentry__ for -pg -mfentry,
 * __cyg_profile_func_enter for -finstrument-functions.  Shared libraries
 * the program loads may carry hooks too, but the program itself decides
 * whether recording makes sense.
 */
#include "symbols/instrumented.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"
#include "symbols/elf_symbols.h"

unsigned program_hook_of(const char *name)
{
	size_t len = strcspn(name, "@");

	if ((len == 6 && !strncmp(name, "mcount", 6)) || (len == 7 && !strncmp(name, "_mcount", 7)))
		return HOOKS_MCOUNT;
	if (len == 10 && !strncmp(name, "__fentry__", 10))
		return HOOKS_FENTRY;
	if (len == 24 && !strncmp(name, "__cyg_profile_func_enter", 24))
		return HOOKS_CYG;
	return 0;
}

int program_hooks_read(const char *path, struct program_hooks *out)
{
	int rc = program_hooks_probe(path, out);

	if (rc == -2)
		return error("cannot open '%s': %s", path, open_strerror(errno));
	if (rc < 0)
		return error("'%s' is not an ELF executable; give callscope the compiled program, "
			     "not a script", path);
	return 0;
}

/* Adds to the hook kinds at CTX the hook an undefined symbol names. */
static int add_hook(void *ctx, const GElf_Sym *sym, const char *name)
{
	if (name && sym->st_shndx == SHN_UNDEF)
		*(unsigned *)ctx |= program_hook_of(name);
	return 0;
}

/* -2: cannot open (errno set); -1: not ELF. */
int program_hooks_probe(const char *path, struct program_hooks *out)
{
	int fd = open_regular(path);
	Elf *elf;
	Elf_Scn *scn = NULL;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return -2;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC)
			out->dynamic = 1;
	}
	elf_each_symbol(elf, SHT_SYMTAB, add_hook, &out->kinds);
	elf_each_symbol(elf, SHT_DYNSYM, add_hook, &out->kinds);
	elf_end(elf);
	close(fd);
	return 0;
}

const char *program_hooks_describe(unsigned kinds)
{
	static char buf[96];
	size_t len = 0;

	buf[0] = '\0';
	if (kinds & HOOKS_MCOUNT)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "-pg");
	if (kinds & HOOKS_FENTRY)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s-pg -mfentry", len ? ", " : "");
	if (kinds & HOOKS_CYG)
		snprintf(buf + len, sizeof(buf) - len, "%s-finstrument-functions", len ? ", " : "");
	return buf;
}
