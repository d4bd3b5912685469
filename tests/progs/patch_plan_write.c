/*
 * Writes a patch plan (common/patch_plan.h) by hand, for testing the
 * runtime's side alone: sites whose windows are known, in one object.
 *
 *     patch_plan_write OUT OBJECT SITE...
 *     SITE = ADDR,WINDOW,RESUME[,AT/END/TARGET...]   (numbers in C syntax)
 *     patch_plan_write OUT OBJECT --frame-pointer
 *
 * The window's instructions are copied from OBJECT's file as they are
 * (position-independent but for the listed fixups); RESUME 0 means the
 * window ends in a jump.  The object is matched by its path.
 * --frame-pointer takes every function of OBJECT's .symtab that starts
 * (after an endbr64) with `push %rbp; mov %rsp,%rbp` and one of a few
 * instructions -O0 code puts next, and names the others on stderr.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch_plan.h"

#define SITES_MAX 4096
#define FIXUPS_MAX 4096

static unsigned char file[1 << 24];
static size_t file_size;

/* The bytes at link-time address ADDR in the loaded file, or NULL. */
static const unsigned char *try_vaddr(uint64_t addr, size_t len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(file + eh->e_phoff + i * eh->e_phentsize);
		if (ph->p_type == PT_LOAD && addr >= ph->p_vaddr &&
		    addr + len <= ph->p_vaddr + ph->p_filesz)
			return file + ph->p_offset + (addr - ph->p_vaddr);
	}
	return NULL;
}

static const unsigned char *at_vaddr(uint64_t addr, size_t len)
{
	const unsigned char *p = try_vaddr(addr, len);

	if (p)
		return p;
	fprintf(stderr, "patch_plan_write: no bytes at %#llx\n", (unsigned long long)addr);
	exit(2);
}

static struct patch_plan_site sites[SITES_MAX];
static struct patch_plan_fixup fixups[FIXUPS_MAX];
static unsigned char code[SITES_MAX * PATCH_WINDOW_MAX];
static uint32_t nsites, nfixups, code_bytes;

static void add_site(uint64_t function, uint64_t addr, unsigned window, uint64_t resume)
{
	struct patch_plan_site *s = &sites[nsites++];

	s->function = function;
	s->addr = addr;
	s->window = (uint8_t)window;
	s->resume = resume;
	s->kind = PATCH_JMP32;
	memcpy(s->original, at_vaddr(s->addr, s->window), s->window);
	s->code = code_bytes;
	s->code_len = s->window;
	memcpy(code + code_bytes, s->original, s->window);
	code_bytes += s->window;
	s->first_fixup = nfixups;
}

static void add_fixup(uint32_t at, uint32_t insn_end, uint64_t target)
{
	struct patch_plan_fixup *x = &fixups[nfixups++];

	x->at = at;
	x->insn_end = insn_end;
	x->target = target;
	sites[nsites - 1].nfixups++;
}

/*
 * The length of the instruction at P after an -O0 prologue, and where a
 * rel32/disp32 field in it lies (*AT, 0 if none); 0 if not known here.
 */
static unsigned known_insn(const unsigned char *p, unsigned *at)
{
	*at = 0;
	if (p[0] == 0x48 && p[1] == 0x83 && p[2] == 0xec)
		return 4;				/* sub $imm8,%rsp */
	if (p[0] == 0x48 && p[1] == 0x81 && p[2] == 0xec)
		return 7;				/* sub $imm32,%rsp */
	if (p[0] == 0x53)
		return 1;				/* push %rbx */
	if (p[0] == 0x41 && p[1] >= 0x54 && p[1] <= 0x57)
		return 2;				/* push %r12-15 */
	if (p[0] == 0x48 && p[1] == 0x89 && (p[2] & 0xc7) == 0x45)
		return 4;				/* mov %r64,d8(%rbp) */
	if (p[0] == 0x89 && (p[1] & 0xc7) == 0x45)
		return 3;				/* mov %r32,d8(%rbp) */
	if ((p[0] == 0xf2 || p[0] == 0xf3) && p[1] == 0x0f && p[2] == 0x11 && (p[3] & 0xc7) == 0x45)
		return 5;				/* movsd/movss %xmm,d8(%rbp) */
	if (p[0] >= 0xb8 && p[0] <= 0xbf)
		return 5;				/* mov $imm32,%r32 */
	if (p[0] == 0xc7 && p[1] == 0x45)
		return 7;				/* movl $imm32,d8(%rbp) */
	if (p[0] == 0xe8) {
		*at = 1;
		return 5;				/* call rel32 */
	}
	if (p[0] == 0x48 && (p[1] == 0x8d || p[1] == 0x8b) && (p[2] & 0xc7) == 0x05) {
		*at = 3;
		return 7;				/* lea/mov d32(%rip),%r64 */
	}
	if (p[0] == 0x8b && (p[1] & 0xc7) == 0x05) {
		*at = 2;
		return 6;				/* mov d32(%rip),%r32 */
	}
	return 0;
}

/* Adds the function at ADDR if its prologue is one known_insn() knows. */
static int add_frame_pointer_function(uint64_t addr)
{
	const unsigned char *p = try_vaddr(addr, 20);
	uint64_t at = addr;
	unsigned field;

	if (!p)
		return 0;
	if (!memcmp(p, "\xf3\x0f\x1e\xfa", 4)) {
		p += 4;
		at += 4;
	}
	if (memcmp(p, "\x55\x48\x89\xe5", 4) != 0)
		return 0;
	unsigned len = known_insn(p + 4, &field);
	if (!len)
		return 0;
	add_site(addr, at, 4 + len, at + 4 + len);
	if (field) {
		int32_t d;
		memcpy(&d, p + 4 + field, 4);
		add_fixup(4 + field, 4 + len, at + 4 + len + (int64_t)d);
	}
	return 1;
}

static void add_frame_pointer_functions(void)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);

	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(file + sh[i].sh_offset);
		const char *names = (const char *)file + sh[sh[i].sh_link].sh_offset;
		size_t n = sh[i].sh_size / sizeof(*sym);
		uint64_t done[SITES_MAX];
		uint32_t ndone = 0;
		for (size_t k = 0; k < n && nsites < SITES_MAX; k++) {
			if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || !sym[k].st_value ||
			    sym[k].st_shndx == SHN_UNDEF)
				continue;
			int seen = 0;
			for (uint32_t j = 0; j < ndone; j++)
				seen |= done[j] == sym[k].st_value;
			if (seen)
				continue;
			if (add_frame_pointer_function(sym[k].st_value))
				done[ndone++] = sym[k].st_value;
			else
				fprintf(stderr, "not planned: %s\n", names + sym[k].st_name);
		}
	}
}

/* The plan's sites must be sorted by address. */
static int by_addr(const void *a, const void *b)
{
	const struct patch_plan_site *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int main(int argc, char **argv)
{

	if (argc < 4) {
		fprintf(stderr, "usage: patch_plan_write OUT OBJECT SITE...\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f || (file_size = fread(file, 1, sizeof(file), f)) == 0) {
		fprintf(stderr, "patch_plan_write: cannot read '%s'\n", argv[2]);
		return 2;
	}
	fclose(f);
	if (!strcmp(argv[3], "--frame-pointer")) {
		add_frame_pointer_functions();
		qsort(sites, nsites, sizeof(sites[0]), by_addr);
	}
	for (int a = 3; a < argc && argv[a][0] != '-' && nsites < SITES_MAX; a++) {
		char *p = argv[a];
		uint64_t addr = strtoull(p, &p, 0);
		unsigned window = (unsigned)strtoul(p + 1, &p, 0);
		add_site(addr, addr, window, strtoull(p + 1, &p, 0));
		while (*p == ',' && nfixups < FIXUPS_MAX) {
			uint32_t at = (uint32_t)strtoul(p + 1, &p, 0);
			uint32_t end = (uint32_t)strtoul(p + 1, &p, 0);
			add_fixup(at, end, strtoull(p + 1, &p, 0));
		}
	}
	struct patch_plan_object o = { 0 };
	o.nsites = nsites;
	struct patch_plan_header h = { PATCH_PLAN_MAGIC, PATCH_PLAN_VERSION, 1, nsites, nfixups,
				       code_bytes, (uint32_t)strlen(argv[2]) + 1 };
	f = fopen(argv[1], "wb");
	if (!f || fwrite(&h, sizeof(h), 1, f) != 1 || fwrite(&o, sizeof(o), 1, f) != 1 ||
	    fwrite(sites, sizeof(sites[0]), nsites, f) != nsites ||
	    fwrite(fixups, sizeof(fixups[0]), nfixups, f) != nfixups ||
	    fwrite(code, 1, code_bytes, f) != code_bytes ||
	    fwrite(argv[2], 1, h.string_bytes, f) != h.string_bytes || fclose(f) != 0) {
		fprintf(stderr, "patch_plan_write: cannot write '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
