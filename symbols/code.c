#include "symbols/code.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readfile.h"
#include "symbols/disasm.h"
#include "xalloc.h"

struct code_file {
	int fd;
	Elf *elf;
};

struct code_file *code_file_open(const char *path)
{
	int fd = open_regular(path);

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf) {
		close(fd);
		return NULL;
	}
	struct code_file *cf = xmalloc(sizeof(*cf));
	cf->fd = fd;
	cf->elf = elf;
	return cf;
}

void code_file_close(struct code_file *cf)
{
	if (!cf)
		return;
	elf_end(cf->elf);
	close(cf->fd);
	free(cf);
}

/* [ADDR, ADDR + N): at least MIN bytes and at most MAX, as many as the
 * executable section holding ADDR has from there; N in *GOT. */
static uint8_t *read_within_section(struct code_file *cf, uint64_t addr, uint64_t min,
				    uint64_t max, uint64_t *got)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(cf->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size || sh.sh_size - (addr - sh.sh_addr) < min)
			continue;
		uint64_t left = sh.sh_size - (addr - sh.sh_addr);
		uint64_t size = left < max ? left : max;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < (addr - sh.sh_addr) + size)
			return NULL;
		uint8_t *code = xmalloc(size ? size : 1);
		memcpy(code, (const uint8_t *)d->d_buf + (addr - sh.sh_addr), size);
		*got = size;
		return code;
	}
	return NULL;
}

uint8_t *code_file_read(struct code_file *cf, uint64_t addr, uint64_t size)
{
	uint64_t got;

	return read_within_section(cf, addr, size, size, &got);
}

uint8_t *code_read(const char *path, uint64_t addr, uint64_t min, uint64_t max, uint64_t *got)
{
	struct code_file *cf = code_file_open(path);
	uint8_t *code = cf ? read_within_section(cf, addr, min, max, got) : NULL;

	code_file_close(cf);
	return code;
}

size_t code_direct_calls(const uint8_t *code, uint64_t addr, size_t size,
			 struct code_call **calls)
{
	csh handle;
	cs_insn *insn;
	size_t ncalls = 0, alloc = 0;

	*calls = NULL;
	const struct disasm *cs = disasm_library(NULL);
	if (!cs || cs->open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
		return 0;
	size_t n = cs->disasm(handle, code, size, addr, 0, &insn);
	for (size_t i = 0; i < n; i++) {
		/* a direct call's or jump's one operand is its target, in hex */
		int call = insn[i].id == X86_INS_CALL, jump = insn[i].id == X86_INS_JMP;
		if ((!call && !jump) || strncmp(insn[i].op_str, "0x", 2))
			continue;
		uint64_t target = strtoull(insn[i].op_str, NULL, 16);
		if (jump && target - addr < size)
			continue;	/* a jump inside the function */
		ALLOC_GROW(*calls, ncalls + 1, alloc);
		(*calls)[ncalls++] = (struct code_call){ target, call ? insn[i].address + insn[i].size : 0,
							 jump };
	}
	if (n)
		cs->free(insn, n);
	cs->close(&handle);
	return ncalls;
}
