#include "symbols/code.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readfile.h"
#include "symbols/disasm.h"
#include "x86_length.h"
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

/*
 * Where to go on decoding after the instruction at AT, the N bytes at
 * CODE, could not be read: past it when it is VEX- or EVEX-encoded, as
 * the instructions newer than the disassembler mostly are (AVX-VNNI,
 * AVX512-FP16, AMX); else at the nearest target of a jump already read
 * that lies past it, an instruction's start for certain; else at the next
 * byte, from which the decoding soon falls back into step.
 */
static uint64_t resume_after(uint64_t at, const uint8_t *code, size_t n,
			     const uint64_t *targets, size_t ntargets)
{
	size_t len = x86_vex_length(code, n);
	if (len)
		return at + len;
	uint64_t next = at + 1;
	for (size_t i = 0; i < ntargets; i++)
		if (targets[i] > at && (next == at + 1 || targets[i] < next))
			next = targets[i];
	return next;
}

size_t code_direct_calls(const uint8_t *code, uint64_t addr, size_t size,
			 struct code_call **calls)
{
	csh handle;
	size_t ncalls = 0, alloc = 0, ntargets = 0, targets_alloc = 0;
	uint64_t *targets = NULL;

	*calls = NULL;
	const struct disasm *cs = disasm_library(NULL);
	if (!cs || cs->open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
		return 0;
	cs_insn *insn = cs->malloc(handle);
	uint64_t at = addr;
	while (insn && at < addr + size) {
		const uint8_t *p = code + (at - addr);
		size_t left = size - (size_t)(at - addr);
		while (left && cs->disasm_iter(handle, &p, &left, &at, insn)) {
			/* a direct call's or jump's one operand is its target, in hex */
			int call = insn->id == X86_INS_CALL, jump = insn->id == X86_INS_JMP;
			int direct = !strncmp(insn->op_str, "0x", 2);
			uint64_t target = direct ? strtoull(insn->op_str, NULL, 16) : 0;
			if (direct && insn->mnemonic[0] == 'j' && target - addr < size) {
				ALLOC_GROW(targets, ntargets + 1, targets_alloc);
				targets[ntargets++] = target;	/* a jump inside the function */
				continue;
			}
			if ((!call && !jump) || !direct)
				continue;
			ALLOC_GROW(*calls, ncalls + 1, alloc);
			(*calls)[ncalls++] = (struct code_call){
				target, call ? insn->address + insn->size : 0, jump };
		}
		if (!left)
			break;
		at = resume_after(at, p, left, targets, ntargets);
	}
	if (insn)
		cs->free(insn, 1);
	free(targets);
	cs->close(&handle);
	return ncalls;
}
