/* Names for the stubs of the procedure linkage table.  See plt.h. */
#include "symbols/plt.h"

#include <stdlib.h>
#include <string.h>

#include "partition.h"
#include "plt_stub.h"
#include "symbols/elf_symbols.h"
#include "u64map.h"
#include "xalloc.h"

/*
 * The sections of stubs the x86-64 linkers (GNU ld, lld) write, and the
 * bytes before their first entry.  Entries are sh_entsize bytes (GNU ld:
 * 16, or 8 in a .plt.got without IBT), or 16 where it is 0 (lld's).
 */
static const struct plt_layout {
	const char *section;
	uint64_t header;
} layouts[] = {
	/* lazy binding: PLT0 (push GOT+8; jmp *GOT+16), then one stub per
	 * .rela.plt slot; under IBT its entries only push and jump to PLT0,
	 * and the stubs calls go to are in .plt.sec */
	{ ".plt", 16 },
	{ ".plt.sec", 0 },
	/* functions whose GOT slot a GLOB_DAT relocation fills (their address
	 * is taken too, or the binding is immediate) */
	{ ".plt.got", 0 },
};

/* PLT0's first instruction, pushq GOT+8(%rip): how .plt is recognised. */
static const uint8_t push_rip[] = { PLT0_PUSH_0, PLT0_PUSH_1 };

/* An IFUNC's resolver: the relocation's addend, named by the symbol there
 * (as perf names such stubs; objdump says "*ABS*+0x9f550@plt"). */
struct resolver {
	uint64_t addr;
	const char *name;	/* borrowed from the Elf; NULL until found */
	int rank;		/* of the symbol kept: global 3, weak 2, local 1 */
};

/* What the GOT slots hold: each slot's name, or its resolver's. */
struct slot_names {
	struct u64map slots;		/* slot address -> index in names */
	const char **names;		/* borrowed from the Elf */
	uint32_t *resolver_of;		/* per slot: index + 1 in resolvers, or 0 */
	size_t n, alloc, alloc_resolver_of;
	struct u64map by_addr;		/* resolver address -> index in resolvers */
	struct resolver *resolvers;
	size_t nresolvers, alloc_resolvers;
};

static void add_slot(struct slot_names *s, uint64_t slot, const char *name, uint32_t resolver)
{
	uint32_t ignored;

	/* a slot has one relocation; a damaged file's second one is ignored */
	if (u64map_get(&s->slots, slot, &ignored) || s->n >= UINT32_MAX - 1)
		return;
	ALLOC_GROW(s->names, s->n + 1, s->alloc);
	ALLOC_GROW(s->resolver_of, s->n + 1, s->alloc_resolver_of);
	s->names[s->n] = name;
	s->resolver_of[s->n] = resolver;
	u64map_put(&s->slots, slot, (uint32_t)s->n);
	s->n++;
}

static uint32_t add_resolver(struct slot_names *s, uint64_t addr)
{
	uint32_t i;

	if (u64map_get(&s->by_addr, addr, &i))
		return i + 1;
	if (s->nresolvers >= UINT32_MAX - 1)
		return 0;
	ALLOC_GROW(s->resolvers, s->nresolvers + 1, s->alloc_resolvers);
	s->resolvers[s->nresolvers] = (struct resolver){ addr, NULL, 0 };
	u64map_put(&s->by_addr, addr, (uint32_t)s->nresolvers);
	return (uint32_t)++s->nresolvers;
}

/* The slots of one relocation section SCN (header SH). */
static void read_relocations(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct slot_names *s)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *symscn = elf_getscn(elf, sh->sh_link);
	GElf_Shdr symsh;
	Elf_Data *symdata = NULL;
	size_t nsyms = 0;

	if (!data || !sh->sh_entsize)
		return;
	if (symscn && gelf_getshdr(symscn, &symsh) && symsh.sh_entsize &&
	    (symsh.sh_type == SHT_DYNSYM || symsh.sh_type == SHT_SYMTAB)) {
		symdata = elf_getdata(symscn, NULL);
		nsyms = symdata ? symdata->d_size / symsh.sh_entsize : 0;
	}
	size_t n = data->d_size / sh->sh_entsize;
	for (size_t i = 0; i < n && i <= INT32_MAX; i++) {
		GElf_Rela r;
		if (!gelf_getrela(data, (int)i, &r))
			break;
		uint64_t type = GELF_R_TYPE(r.r_info), symi = GELF_R_SYM(r.r_info);
		if (type == R_X86_64_IRELATIVE) {
			add_slot(s, r.r_offset, NULL, add_resolver(s, (uint64_t)r.r_addend));
			continue;
		}
		if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) || !symi ||
		    symi >= nsyms || symi > INT32_MAX)
			continue;
		GElf_Sym sym;
		if (!gelf_getsym(symdata, (int)symi, &sym))
			continue;
		const char *name = elf_strptr(elf, symsh.sh_link, sym.st_name);
		if (name && *name)
			add_slot(s, r.r_offset, name, 0);
	}
}

/* Names the IFUNC resolvers the IRELATIVE slots point to. */
static int name_resolver(void *ctx, const GElf_Sym *sym, const char *name)
{
	struct slot_names *s = ctx;
	int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
	int rank = bind == STB_GLOBAL ? 3 : bind == STB_WEAK ? 2 : 1;
	uint32_t i;

	if ((type != STT_GNU_IFUNC && type != STT_FUNC) || sym->st_shndx == SHN_UNDEF ||
	    !name || !*name || !u64map_get(&s->by_addr, sym->st_value, &i))
		return 0;
	if (rank > s->resolvers[i].rank) {
		s->resolvers[i].name = name;
		s->resolvers[i].rank = rank;
	}
	return 0;
}

static void read_slots(Elf *elf, struct slot_names *s)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		/* the dynamic relocations: the loaded ones */
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA && (sh.sh_flags & SHF_ALLOC))
			read_relocations(elf, scn, &sh, s);
	}
	if (!s->nresolvers)
		return;
	/* the exported names first: .symtab's may carry a version suffix */
	elf_each_symbol(elf, SHT_DYNSYM, name_resolver, s);
	elf_each_symbol(elf, SHT_SYMTAB, name_resolver, s);
}

static void slot_names_release(struct slot_names *s)
{
	u64map_release(&s->slots);
	u64map_release(&s->by_addr);
	free(s->names);
	free(s->resolver_of);
	free(s->resolvers);
}

/* The name of what the GOT slot SLOT leads to, or NULL. */
static const char *slot_name(const struct slot_names *s, uint64_t slot)
{
	uint32_t i;

	if (!u64map_get(&s->slots, slot, &i))
		return NULL;
	if (s->resolver_of[i])
		return s->resolvers[s->resolver_of[i] - 1].name;
	return s->names[i];
}

int plt_stub_slot(const uint8_t *entry, size_t size, uint64_t addr, uint64_t *slot)
{
	int at = plt_stub_jump(entry, size);
	int32_t disp;

	if (at < 0)
		return -1;
	memcpy(&disp, entry + at + 2, sizeof(disp));
	*slot = addr + (uint64_t)at + 6 + (uint64_t)(int64_t)disp;
	return 0;
}

struct plt_builder {
	struct plt_symbols *out;
	size_t alloc;
};

static void add_symbol(struct plt_builder *b, uint64_t start, uint64_t size, char *name)
{
	ALLOC_GROW(b->out->a, b->out->n + 1, b->alloc);
	b->out->a[b->out->n++] = (struct plt_symbol){ start, size, name };
}

/*
 * Names the stubs of the section SECTION (header SH, bytes D) laid out as
 * L.  The bytes no stub name covers (the lazy resolver's header, IBT's
 * lazy entries, which only push and jump to it) take the section's name,
 * as objdump labels them: a sample there, in a function's first call, is
 * in the PLT, not at an address of the program.
 */
static void add_stubs(struct plt_builder *b, const struct plt_layout *l, const char *section,
		      const GElf_Shdr *sh, const Elf_Data *d, const struct slot_names *s)
{
	uint64_t entry = sh->sh_entsize ? sh->sh_entsize : 16;
	const uint8_t *bytes = d->d_buf;
	uint64_t unnamed = 0;	/* where the bytes without a stub name begin */

	if ((entry != 8 && entry != 16) || sh->sh_size < l->header ||
	    (sh->sh_size - l->header) % entry)
		return;
	if (l->header && memcmp(bytes, push_rip, sizeof(push_rip)))
		return;
	for (uint64_t off = l->header; off < sh->sh_size; off += entry) {
		uint64_t slot;
		const char *name;
		if (plt_stub_slot(bytes + off, entry, sh->sh_addr + off, &slot) ||
		    !(name = slot_name(s, slot)))
			continue;
		if (unnamed < off)
			add_symbol(b, sh->sh_addr + unnamed, off - unnamed, xstrdup(section));
		add_symbol(b, sh->sh_addr + off, entry, xasprintf("%s@plt", name));
		unnamed = off + entry;
	}
	if (unnamed < sh->sh_size)
		add_symbol(b, sh->sh_addr + unnamed, sh->sh_size - unnamed, xstrdup(section));
}

static int by_start(const void *a, const void *b)
{
	const struct plt_symbol *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorted, one stub per address (sections of a damaged file may overlap). */
static void sort_stubs(struct plt_symbols *t)
{
	size_t w = 0;

	if (!t->n)
		return;
	qsort(t->a, t->n, sizeof(*t->a), by_start);
	for (size_t r = 0; r < t->n; r++) {
		if (w && t->a[r].start < t->a[w - 1].start + t->a[w - 1].size) {
			free(t->a[r].name);
			continue;
		}
		t->a[w++] = t->a[r];
	}
	t->n = w;
}

void plt_symbols_load(Elf *elf, struct plt_symbols *out)
{
	struct plt_builder b = { out, 0 };
	struct slot_names s = { 0 };
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	memset(out, 0, sizeof(*out));
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	u64map_init(&s.slots);
	u64map_init(&s.by_addr);
	read_slots(elf, &s);
	while (s.n && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!name || !d || !d->d_buf || d->d_size != sh.sh_size)
			continue;
		for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
			if (!strcmp(name, layouts[i].section))
				add_stubs(&b, &layouts[i], name, &sh, d, &s);
	}
	slot_names_release(&s);
	sort_stubs(out);
}

void plt_symbols_release(struct plt_symbols *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->a[i].name);
	free(t->a);
	memset(t, 0, sizeof(*t));
}

const struct plt_symbol *plt_symbols_lookup(const struct plt_symbols *t, uint64_t addr)
{
	/* the first stub above ADDR */
	size_t lo = PARTITION_POINT(t->n, mid, t->a[mid].start <= addr);

	if (!lo || addr - t->a[lo - 1].start >= t->a[lo - 1].size)
		return NULL;
	return &t->a[lo - 1];
}
