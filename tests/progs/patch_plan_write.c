/*
 * Writes a patch plan (common/patch_plan.h) by hand, for testing the
 * runtime's side alone: sites whose windows are known, in one object.
 *
 *     patch_plan_write OUT OBJECT SITE...
 *     SITE = ADDR,WINDOW,RESUME[,AT/END/TARGET...]   (numbers in C syntax)
 *
 * The window's instructions are copied from OBJECT's file as they are
 * (position-independent but for the listed fixups); RESUME 0 means the
 * window ends in a jump.  The object is matched by its path.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch_plan.h"

#define SITES_MAX 64
#define FIXUPS_MAX 256

static unsigned char file[1 << 24];
static size_t file_size;

/* The bytes at link-time address ADDR in the loaded file. */
static const unsigned char *at_vaddr(uint64_t addr, size_t len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(file + eh->e_phoff + i * eh->e_phentsize);
		if (ph->p_type == PT_LOAD && addr >= ph->p_vaddr &&
		    addr + len <= ph->p_vaddr + ph->p_filesz)
			return file + ph->p_offset + (addr - ph->p_vaddr);
	}
	fprintf(stderr, "patch_plan_write: no bytes at %#llx\n", (unsigned long long)addr);
	exit(2);
}

int main(int argc, char **argv)
{
	static struct patch_plan_site sites[SITES_MAX];
	static struct patch_plan_fixup fixups[FIXUPS_MAX];
	static unsigned char code[SITES_MAX * PATCH_WINDOW_MAX];
	uint32_t nsites = 0, nfixups = 0, code_bytes = 0;

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
	for (int a = 3; a < argc && nsites < SITES_MAX; a++) {
		struct patch_plan_site *s = &sites[nsites++];
		char *p = argv[a];
		s->function = s->addr = strtoull(p, &p, 0);
		s->window = (uint8_t)strtoul(p + 1, &p, 0);
		s->resume = strtoull(p + 1, &p, 0);
		s->kind = PATCH_JMP32;
		memcpy(s->original, at_vaddr(s->addr, s->window), s->window);
		s->code = code_bytes;
		s->code_len = s->window;
		memcpy(code + code_bytes, s->original, s->window);
		code_bytes += s->window;
		s->first_fixup = nfixups;
		while (*p == ',' && nfixups < FIXUPS_MAX) {
			struct patch_plan_fixup *x = &fixups[nfixups++];
			x->at = (uint32_t)strtoul(p + 1, &p, 0);
			x->insn_end = (uint32_t)strtoul(p + 1, &p, 0);
			x->target = strtoull(p + 1, &p, 0);
			s->nfixups++;
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
