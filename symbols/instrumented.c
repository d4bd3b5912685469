/*
 * The hooks a program carries show as undefined references in its symbol
 * tables: mcount (or _mcount) for -pg, __fentry__ for -pg -mfentry,
 * __cyg_profile_func_enter for -finstrument-functions.  Shared libraries
 * the program loads may carry hooks too, but the program itself decides
 * whether recording makes sense.
 */
#include "symbols/instrumented.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"
#include "symbols/elf_symbols.h"
#include "xalloc.h"

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

/*
 * The interpreter a script at PATH names on its "#!" line, into BUF of
 * SIZE bytes; NULL when PATH does not start with one.  A script that
 * execs the real program (valgrind's and libtool's wrappers) records
 * through its interpreter, which is an ELF executable.
 */
static const char *script_interpreter(const char *path, char *buf, size_t size)
{
	FILE *f = fopen_regular(path);
	char line[256];
	int got = f && fgets(line, sizeof(line), f) != NULL;

	if (f)
		fclose(f);
	if (!got || strncmp(line, "#!", 2))
		return NULL;
	const char *start = line + 2 + strspn(line + 2, " \t");
	size_t len = strcspn(start, " \t\r\n");
	if (!len || len >= size)
		return NULL;
	memcpy(buf, start, len);
	buf[len] = '\0';
	return buf;
}

int program_hooks_read(const char *path, struct program_hooks *out)
{
	int rc = program_hooks_probe(path, out);
	char interpreter[256];

	if (rc == -2)
		return error("cannot open '%s': %s", path, open_strerror(errno));
	if (rc < 0 && script_interpreter(path, interpreter, sizeof(interpreter)))
		return error("'%s' is not an ELF executable but a script for %s; give callscope "
			     "the compiled program, or record the script through its interpreter: "
			     "callscope record -- %s %s ...", path, interpreter, interpreter, path);
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

/* BYTES bytes of FD at OFF, read whole into a new buffer, or NULL when
 * they lie past the file's SIZE. */
static void *read_range(int fd, uint64_t size, uint64_t off, uint64_t bytes)
{
	if (off > size || bytes > size - off)
		return NULL;
	void *buf = xmalloc(bytes ? bytes : 1);
	if (pread(fd, buf, bytes, (off_t)off) != (ssize_t)bytes) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Adds to *KINDS the hooks the undefined symbols of symbol table SECTION
 * name (its strings in section LINK); -1 when they lie past the file. */
static int elf64_table_hooks(int fd, uint64_t size, const Elf64_Shdr *sections,
			     const Elf64_Shdr *table, unsigned *kinds)
{
	const Elf64_Shdr *strings = &sections[table->sh_link];
	Elf64_Sym *syms = read_range(fd, size, table->sh_offset, table->sh_size);
	char *names = read_range(fd, size, strings->sh_offset, strings->sh_size);
	int rc = syms && names && strings->sh_size && !names[strings->sh_size - 1] ? 0 : -1;

	for (size_t i = 0; !rc && i < table->sh_size / sizeof(Elf64_Sym); i++)
		if (syms[i].st_shndx == SHN_UNDEF && syms[i].st_name < strings->sh_size)
			*kinds |= program_hook_of(names + syms[i].st_name);
	free(syms);
	free(names);
	return rc;
}

/* Whether the dynamic section SH of FD marks a PIE (DF_1_PIE). */
static int elf64_dynamic_pie(int fd, uint64_t size, const Elf64_Shdr *sh)
{
	Elf64_Dyn *dyn = read_range(fd, size, sh->sh_offset, sh->sh_size);
	int pie = 0;

	for (size_t i = 0; dyn && i < sh->sh_size / sizeof(*dyn) && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_FLAGS_1)
			pie = (dyn[i].d_un.d_val & DF_1_PIE) != 0;
	free(dyn);
	return pie;
}

/* Whether the program headers of FD name a loader (PT_INTERP). */
static int elf64_has_interp(int fd, uint64_t size, const Elf64_Ehdr *eh)
{
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return 0;
	Elf64_Phdr *ph = read_range(fd, size, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(*ph));
	int interp = 0;

	for (size_t i = 0; ph && i < eh->e_phnum; i++)
		interp |= ph[i].p_type == PT_INTERP;
	free(ph);
	return interp;
}

/*
 * The hooks of a 64-bit little-endian ELF file FD by its section headers
 * alone, with no library to load (what `record` asks of every program
 * before it starts it): 0, or -1 for any other file or anything unusual,
 * which libelf then reads.
 */
static int elf64_hooks(int fd, struct program_hooks *out)
{
	Elf64_Ehdr eh;
	struct stat st;

	if (fstat(fd, &st) != 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !eh.e_shnum || eh.e_shnum >= SHN_LORESERVE)
		return -1;
	uint64_t size = (uint64_t)st.st_size;
	Elf64_Shdr *sections = read_range(fd, size, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(*sections));
	int rc = sections ? 0 : -1, pie = 0;
	for (size_t i = 0; !rc && i < eh.e_shnum; i++) {
		const Elf64_Shdr *sh = &sections[i];
		if (sh->sh_type == SHT_DYNAMIC) {
			out->dynamic = 1;
			pie |= elf64_dynamic_pie(fd, size, sh);
		}
		if (sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM)
			continue;
		if (sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_link >= eh.e_shnum)
			rc = -1;
		else
			rc = elf64_table_hooks(fd, size, sections, sh, &out->kinds);
	}
	free(sections);
	if (pie && !elf64_has_interp(fd, size, &eh))
		out->dynamic = 0;	/* -static-pie: it relocates itself */
	return rc;
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
	if (elf64_hooks(fd, out) == 0) {
		close(fd);
		return 0;
	}
	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	int pie = 0, interp = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
			continue;
		out->dynamic = 1;
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Dyn dyn;
		for (int i = 0; d && gelf_getdyn(d, i, &dyn) && dyn.d_tag != DT_NULL; i++)
			if (dyn.d_tag == DT_FLAGS_1)
				pie = (dyn.d_un.d_val & DF_1_PIE) != 0;
	}
	size_t nph = 0;
	GElf_Phdr ph;
	for (size_t i = 0; elf_getphdrnum(elf, &nph) == 0 && i < nph; i++)
		interp |= gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP;
	if (pie && !interp)
		out->dynamic = 0;
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
