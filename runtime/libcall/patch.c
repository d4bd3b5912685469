/*
 * Points the GOT slots of every object with hooks at stubs, so that its
 * calls into other objects are seen (enter.c).  An object has hooks when
 * it calls mcount, __fentry__ or __cyg_profile_func_enter: the executable
 * built with -pg, an instrumented shared library; or when its function
 * entries were patched (runtime/patch/).  Its slots are the
 * JUMP_SLOT relocations of its PLT (lazy or immediate binding, .plt or
 * .plt.sec) and the GLOB_DAT relocations of functions it calls through the
 * GOT (-fno-plt), unless its code also takes the function's address from
 * that slot (slot_reads.c).  Calls into objects with hooks are left alone: their
 * own hooks see them.  So are the runtime's own functions, but for the
 * stand-ins a program calls as libc's (signal, pthread_create...).
 *
 * Each slot's function is found as the dynamic linker would: a slot bound
 * already (-z now, LD_BIND_NOW, or called once) holds it; a lazy one still
 * points into its own PLT, and the function is looked up by name and
 * version, first in the global scope, then in the object's own (a library
 * dlopen'ed with RTLD_LOCAL).  The stub jumps straight to it, so the lazy
 * resolver never runs and cannot overwrite the slot.  A function is named
 * by its symbol's address in the object that defines it: strcmp's, not
 * that of the CPU-specific variant its IFUNC chose.
 *
 * The stubs of one pass live in one mapping, written and then made
 * executable before any slot points at them; a slot already pointing into
 * such a mapping is hooked, which makes passes idempotent: one runs at
 * start-up and one after each dlopen.
 */
#define _GNU_SOURCE
#include "libcall.h"
#include "libcall_setting.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define OBJECTS_MAX 1024
#define OBJECT_CODE_MAX 4	/* executable segments looked at in one object */
#define PASSES_MAX 256
#define STUB_SIZE 32

/* What one loaded object's program headers and dynamic section say. */
struct object_view {
	uintptr_t base;
	const char *path;
	uintptr_t lo, hi;		/* its loaded segments */
	uintptr_t relro_lo, relro_hi;	/* pages made read-only after relocation */
	struct libcall_code code[OBJECT_CODE_MAX];	/* its executable segments */
	size_t ncode;
	const ElfW(Sym) *symtab;
	const char *strtab;
	const ElfW(Rela) *jmprel;
	size_t njmprel;
	const ElfW(Rela) *rela;
	size_t nrela;
	const ElfW(Half) *versym;
	const ElfW(Verneed) *verneed;
	size_t nverneed;
	const uint32_t *gnu_hash;
	int hooked;
	int runtime;			/* libcallscope.so itself */
};

/* A slot to point at a stub once the stubs are executable. */
struct patch {
	uintptr_t *slot;
	uintptr_t stub;
	size_t object;
};

static struct {
	int setting_read;
	int on;
	char spec[LIBCALL_SPEC_MAX];
	struct object_view objects[OBJECTS_MAX];
	size_t nobjects;
	struct {
		uintptr_t lo, hi;
	} passes[PASSES_MAX];		/* the stub mappings made so far */
	size_t npasses;
} lc;

static pthread_mutex_t lc_lock = PTHREAD_MUTEX_INITIALIZER;

/* A dynamic-section address: glibc rewrites most of them to absolute
 * addresses as it loads an object, but not all (the vDSO's). */
static uintptr_t dyn_ptr(const struct object_view *o, ElfW(Addr) v)
{
	return v < o->base ? v + o->base : v;
}

static int contains(const struct object_view *o, uintptr_t addr)
{
	return addr >= o->lo && addr < o->hi;
}

static const char *sym_name(const struct object_view *o, const ElfW(Rela) *r)
{
	return o->strtab + o->symtab[ELF64_R_SYM(r->r_info)].st_name;
}

static int is_hook_name(const char *name)
{
	return !strcmp(name, "mcount") || !strcmp(name, "_mcount") ||
	       !strcmp(name, "__fentry__") || !strcmp(name, "__cyg_profile_func_enter");
}

static void read_dynamic(struct object_view *o, const ElfW(Dyn) *d)
{
	size_t pltrelsz = 0, relasz = 0;

	for (; d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_SYMTAB: o->symtab = (const void *)dyn_ptr(o, d->d_un.d_ptr); break;
		case DT_STRTAB: o->strtab = (const void *)dyn_ptr(o, d->d_un.d_ptr); break;
		case DT_JMPREL: o->jmprel = (const void *)dyn_ptr(o, d->d_un.d_ptr); break;
		case DT_PLTRELSZ: pltrelsz = d->d_un.d_val; break;
		case DT_RELA: o->rela = (const void *)dyn_ptr(o, d->d_un.d_ptr); break;
		case DT_RELASZ: relasz = d->d_un.d_val; break;
		case DT_VERSYM: o->versym = (const void *)dyn_ptr(o, d->d_un.d_ptr); break;
		case DT_VERNEED: o->verneed = (const void *)dyn_ptr(o, d->d_un.d_ptr); break;
		case DT_VERNEEDNUM: o->nverneed = d->d_un.d_val; break;
		case DT_GNU_HASH: o->gnu_hash = (const void *)dyn_ptr(o, d->d_un.d_ptr); break;
		default: break;
		}
	}
	if (!o->symtab || !o->strtab) {
		o->jmprel = o->rela = NULL;
		return;
	}
	o->njmprel = o->jmprel ? pltrelsz / sizeof(ElfW(Rela)) : 0;
	o->nrela = o->rela ? relasz / sizeof(ElfW(Rela)) : 0;
}

/* Is R a slot a call may go through: a PLT slot, or a GOT slot of a
 * function defined elsewhere? */
static int is_call_slot(const struct object_view *o, const ElfW(Rela) *r)
{
	unsigned type = ELF64_R_TYPE(r->r_info);
	const ElfW(Sym) *s = &o->symtab[ELF64_R_SYM(r->r_info)];

	if (!ELF64_R_SYM(r->r_info))
		return 0;
	if (type == R_X86_64_JUMP_SLOT)
		return 1;
	return type == R_X86_64_GLOB_DAT && s->st_shndx == SHN_UNDEF &&
	       ELF64_ST_TYPE(s->st_info) == STT_FUNC;
}

static int calls_hooks(const struct object_view *o)
{
	for (size_t i = 0; i < o->njmprel; i++)
		if (is_call_slot(o, &o->jmprel[i]) && is_hook_name(sym_name(o, &o->jmprel[i])))
			return 1;
	for (size_t i = 0; i < o->nrela; i++)
		if (is_call_slot(o, &o->rela[i]) && is_hook_name(sym_name(o, &o->rela[i])))
			return 1;
	return 0;
}

/* Reads what INFO says of its object into O: 0, or -1 when it has no
 * loaded segment. */
static int read_view(const struct dl_phdr_info *info, struct object_view *o)
{
	const ElfW(Dyn) *dyn = NULL;

	memset(o, 0, sizeof(*o));
	o->base = info->dlpi_addr;
	o->path = info->dlpi_name ? info->dlpi_name : "";
	o->lo = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t start = o->base + p->p_vaddr, end = start + p->p_memsz;
		if (p->p_type == PT_LOAD) {
			o->lo = start < o->lo ? start : o->lo;
			o->hi = end > o->hi ? end : o->hi;
			if ((p->p_flags & (PF_X | PF_R)) == (PF_X | PF_R) && o->ncode < OBJECT_CODE_MAX)
				o->code[o->ncode++] = (struct libcall_code){ start, end };
		} else if (p->p_type == PT_DYNAMIC) {
			dyn = (const void *)start;
		} else if (p->p_type == PT_GNU_RELRO) {
			uintptr_t page = (uintptr_t)getpagesize();
			o->relro_lo = start & ~(page - 1);
			o->relro_hi = end & ~(page - 1);
		}
	}
	if (o->lo >= o->hi)
		return -1;
	o->runtime = contains(o, (uintptr_t)callscope_libcall_entry);
	if (dyn)
		read_dynamic(o, dyn);
	o->hooked = !o->runtime && (calls_hooks(o) || patch_covers(o->lo));
	return 0;
}

static int view_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (lc.nobjects == OBJECTS_MAX)
		return 1;
	if (read_view(info, &lc.objects[lc.nobjects]) == 0)
		lc.nobjects++;
	return 0;
}

int libcall_object_hooked(const struct dl_phdr_info *info)
{
	struct object_view o;

	return read_view(info, &o) == 0 && o.hooked;
}

static const struct object_view *object_at(uintptr_t addr)
{
	for (size_t i = 0; i < lc.nobjects; i++)
		if (contains(&lc.objects[i], addr))
			return &lc.objects[i];
	return NULL;
}

/* The version the object asks of symbol SYM (verneed), or NULL. */
static const char *version_of(const struct object_view *o, size_t sym)
{
	if (!o->versym || !o->verneed)
		return NULL;
	ElfW(Half) want = o->versym[sym] & 0x7fff;
	const ElfW(Verneed) *vn = o->verneed;

	if (want < 2)
		return NULL;
	for (size_t i = 0; i < o->nverneed; i++) {
		const ElfW(Vernaux) *a = (const void *)((const char *)vn + vn->vn_aux);
		for (unsigned j = 0; j < vn->vn_cnt; j++) {
			if (a->vna_other == want)
				return o->strtab + a->vna_name;
			a = (const void *)((const char *)a + a->vna_next);
		}
		vn = (const void *)((const char *)vn + vn->vn_next);
	}
	return NULL;
}

static uint32_t gnu_hash_of(const char *s)
{
	uint32_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (uint8_t)*s;
	return h;
}

/* NAME's definition in O (an IFUNC's own symbol, not its choice), or
 * NULL. */
static const ElfW(Sym) *definition(const struct object_view *o, const char *name, size_t *index)
{
	const uint32_t *h = o->gnu_hash;

	if (!h || !h[0])
		return NULL;
	uint32_t nbuckets = h[0], first = h[1], bloom_words = h[2];
	const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(h + 4) + bloom_words);
	const uint32_t *chain = buckets + nbuckets;
	uint32_t want = gnu_hash_of(name);

	for (uint32_t i = buckets[want % nbuckets]; i >= first; i++) {
		uint32_t got = chain[i - first];
		const ElfW(Sym) *s = &o->symtab[i];
		if ((got | 1) == (want | 1) && s->st_shndx != SHN_UNDEF &&
		    !strcmp(o->strtab + s->st_name, name)) {
			*index = i;
			return s;
		}
		if (got & 1)
			break;
	}
	return NULL;
}

static uintptr_t symbol_value(const struct object_view *o, const char *name)
{
	size_t i;
	const ElfW(Sym) *s = definition(o, name, &i);

	return s ? o->base + s->st_value : 0;
}

/* Does O define NAME without a version?  Such a definition (a malloc
 * preloaded, the runtime's own stand-ins) satisfies any versioned
 * reference that reaches it first, and dlvsym would pass it by. */
static int unversioned(const struct object_view *o, const char *name)
{
	size_t i;

	if (!definition(o, name, &i))
		return 0;
	return !o->versym || (o->versym[i] & 0x7fff) <= 1;
}

static void *lookup_in(void *handle, const char *name, const char *version)
{
	return version ? dlvsym(handle, name, version) : dlsym(handle, name);
}

/* Where a call through slot R of O goes now, or 0 if nowhere. */
static uintptr_t function_of(const struct object_view *o, const ElfW(Rela) *r, uintptr_t current)
{
	const char *name = sym_name(o, r);
	const char *version;
	void *p;

	if (current && !contains(o, current))
		return current;
	version = version_of(o, ELF64_R_SYM(r->r_info));
	p = lookup_in(RTLD_DEFAULT, name, version);
	if (version) {
		void *first = dlsym(RTLD_DEFAULT, name);
		const struct object_view *def = first ? object_at((uintptr_t)first) : NULL;
		if (first != p && def && def != o && unversioned(def, name))
			p = first;
	}
	/* the executable's own PLT entry, when it takes the address */
	if (p && contains(o, (uintptr_t)p))
		p = lookup_in(RTLD_NEXT, name, version);
	if (!p && *o->path) {
		void *h = dlopen(o->path, RTLD_LAZY | RTLD_NOLOAD);
		if (h) {
			p = lookup_in(h, name, version);
			dlclose(h);
		}
	}
	return (uintptr_t)p;
}

int libcall_in_stubs(uintptr_t pc)
{
	size_t n = __atomic_load_n(&lc.npasses, __ATOMIC_ACQUIRE);

	for (size_t i = 0; i < n; i++)
		if (pc >= lc.passes[i].lo && pc < lc.passes[i].hi)
			return 1;
	return 0;
}

static void write_stub(uint8_t *p, const struct libcall_target *target)
{
	/* endbr64; movabs $target, %r11; then jmp entry: rel32 when the
	 * mapping landed within reach, else jmp *0(%rip); .quad entry */
	static const uint8_t head[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x49, 0xbb };
	static const uint8_t jump[] = { 0xff, 0x25, 0, 0, 0, 0 };
	uint64_t t = (uintptr_t)target, e = (uintptr_t)callscope_libcall_entry;
	int64_t rel = (int64_t)(e - ((uintptr_t)p + 19));

	memset(p, 0xcc, STUB_SIZE);
	memcpy(p, head, sizeof(head));
	memcpy(p + 6, &t, 8);
	if (rel == (int32_t)rel) {
		int32_t r = (int32_t)rel;
		p[14] = 0xe9;
		memcpy(p + 15, &r, 4);
		return;
	}
	memcpy(p + 14, jump, sizeof(jump));
	memcpy(p + 20, &e, 8);
}

/* The stubs and targets of one pass: at most N of each. */
struct pass {
	uint8_t *stubs;
	struct libcall_target *targets;
	size_t n, used;
	size_t stub_bytes, map_bytes;
	struct patch *patches;
	size_t npatches;
	/* the GLOB_DAT call slots of the object being looked at, marked
	 * where its code reads them otherwise (slot_reads.c) */
	uintptr_t *glob_slots;
	size_t nglob_slots;
};

/*
 * The stub that enters ID's calls and jumps on to JUMP.  A pass meets each
 * function a few times, and shares its stub; but two functions may jump
 * to one place (glibc's IFUNCs memcpy and memmove pick one variant for
 * both), and each keeps its own name, so a stub is shared only by the
 * calls of one symbol.
 */
static uintptr_t stub_for(struct pass *ps, uintptr_t jump, uintptr_t id, const char *name)
{
	uint32_t kind = libcall_kind_of(name);

	for (size_t i = 0; i < ps->used; i++)
		if (ps->targets[i].jump == jump && ps->targets[i].id == id &&
		    ps->targets[i].kind == kind)
			return (uintptr_t)(ps->stubs + i * STUB_SIZE);
	struct libcall_target *t = &ps->targets[ps->used];
	t->jump = jump;
	t->id = id;
	t->kind = kind;
	write_stub(ps->stubs + ps->used * STUB_SIZE, t);
	return (uintptr_t)(ps->stubs + ps->used++ * STUB_SIZE);
}

static void consider_slot(struct pass *ps, size_t oi, const ElfW(Rela) *r)
{
	const struct object_view *o = &lc.objects[oi];
	const char *name = sym_name(o, r);
	uintptr_t *slot = (uintptr_t *)(o->base + r->r_offset);
	uintptr_t current, jump, id;
	const struct object_view *def;

	if (!is_call_slot(o, r) || libcall_ignored(name))
		return;
	if (ELF64_R_TYPE(r->r_info) == R_X86_64_GLOB_DAT &&
	    libcall_slot_read(ps->glob_slots, ps->nglob_slots, (uintptr_t)slot))
		return;
	current = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if (libcall_in_stubs(current) || !(jump = function_of(o, r, current)))
		return;
	def = object_at(jump);
	if (!def || def->hooked || (def->runtime && !libcall_stand_in_traced(name)) ||
	    !libcall_selected(lc.spec, name, def->path))
		return;
	/* a stand-in is named by the function it stands in for (libc's
	 * signal): the analyzer knows nothing of the runtime's own code */
	if (def->runtime) {
		void *next = dlsym(RTLD_NEXT, name);
		if (!next || !(def = object_at((uintptr_t)next)))
			return;
		id = symbol_value(def, name);
		id = id ? id : (uintptr_t)next;
	} else {
		id = symbol_value(def, name);
	}
	ps->patches[ps->npatches++] = (struct patch){
		slot, stub_for(ps, jump, id ? id : jump, name), oi
	};
}

static void apply_patches(const struct pass *ps)
{
	size_t first = 0;

	while (first < ps->npatches) {
		const struct object_view *o = &lc.objects[ps->patches[first].object];
		size_t end = first;
		int relro = o->relro_hi > o->relro_lo;

		while (end < ps->npatches && ps->patches[end].object == ps->patches[first].object)
			end++;
		if (relro && mprotect((void *)o->relro_lo, o->relro_hi - o->relro_lo,
				      PROT_READ | PROT_WRITE) != 0)
			relro = -1;
		for (size_t i = first; i < end; i++) {
			uintptr_t s = (uintptr_t)ps->patches[i].slot;
			if (relro < 0 && s >= o->relro_lo && s < o->relro_hi)
				continue;
			__atomic_store_n(ps->patches[i].slot, ps->patches[i].stub, __ATOMIC_RELEASE);
		}
		if (relro > 0)
			mprotect((void *)o->relro_lo, o->relro_hi - o->relro_lo, PROT_READ);
		first = end;
	}
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* Gathers the GLOB_DAT call slots of object OI into PS and marks those its
 * code reads otherwise. */
static void find_glob_slots(struct pass *ps, size_t oi)
{
	const struct object_view *o = &lc.objects[oi];

	ps->nglob_slots = 0;
	for (size_t i = 0; i < o->nrela; i++)
		if (ELF64_R_TYPE(o->rela[i].r_info) == R_X86_64_GLOB_DAT &&
		    is_call_slot(o, &o->rela[i]))
			ps->glob_slots[ps->nglob_slots++] = o->base + o->rela[i].r_offset;
	libcall_mark_slot_reads(ps->glob_slots, ps->nglob_slots, o->code, o->ncode);
}

static void hook_objects(void)
{
	struct pass ps = { 0 };
	size_t page = (size_t)getpagesize();

	lc.nobjects = 0;
	dl_iterate_phdr(view_object, NULL);
	for (size_t i = 0; i < lc.nobjects; i++)
		if (lc.objects[i].hooked)
			ps.n += lc.objects[i].njmprel + lc.objects[i].nrela;
	if (!ps.n)
		return;
	if (lc.npasses == PASSES_MAX) {
		rt_warn("too many objects loaded; the newest are not traced for library calls", "");
		return;
	}
	ps.stub_bytes = round_up(ps.n * STUB_SIZE, page);
	size_t spent_bytes = round_up(ps.n * (sizeof(struct patch) + sizeof(uintptr_t)), page);
	ps.map_bytes = ps.stub_bytes + round_up(ps.n * sizeof(struct libcall_target), page) +
		       spent_bytes;
	/* near the runtime, so that a stub reaches the entry with a direct jump */
	void *near = (void *)(((uintptr_t)callscope_libcall_entry - (256u << 20)) & ~(uintptr_t)0xfffff);
	ps.stubs = mmap(near, ps.map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (ps.stubs == MAP_FAILED)
		return;
	ps.targets = (void *)(ps.stubs + ps.stub_bytes);
	ps.patches = (void *)((uint8_t *)ps.targets +
			      round_up(ps.n * sizeof(struct libcall_target), page));
	ps.glob_slots = (void *)(ps.patches + ps.n);
	for (size_t oi = 0; oi < lc.nobjects; oi++) {
		const struct object_view *o = &lc.objects[oi];
		if (!o->hooked)
			continue;
		find_glob_slots(&ps, oi);
		for (size_t i = 0; i < o->njmprel; i++)
			consider_slot(&ps, oi, &o->jmprel[i]);
		for (size_t i = 0; i < o->nrela; i++)
			consider_slot(&ps, oi, &o->rela[i]);
	}
	if (mprotect(ps.stubs, ps.stub_bytes, PROT_READ | PROT_EXEC) != 0 ||
	    mprotect(ps.targets, round_up(ps.n * sizeof(struct libcall_target), page),
		     PROT_READ) != 0) {
		munmap(ps.stubs, ps.map_bytes);
		return;
	}
	lc.passes[lc.npasses].lo = (uintptr_t)ps.stubs;
	lc.passes[lc.npasses].hi = (uintptr_t)ps.stubs + ps.stub_bytes;
	/* after its bounds: a signal handler reads them (libcall_in_stubs()) */
	__atomic_store_n(&lc.npasses, lc.npasses + 1, __ATOMIC_RELEASE);
	apply_patches(&ps);
	/* the patch list and the slots looked at are spent; the targets
	 * stay for the stubs */
	munmap(ps.patches, spent_bytes);
}

/* Reads the launcher's setting, once; the caller holds lc_lock. */
static void read_setting(void)
{
	if (!lc.setting_read) {
		const char *s = secure_getenv(LIBCALL_ENV);
		lc.setting_read = 1;
		lc.on = s && *s && strlen(s) < sizeof(lc.spec);
		if (lc.on)
			memcpy(lc.spec, s, strlen(s) + 1);
	}
}

void libcall_install(void)
{
	pthread_mutex_lock(&lc_lock);
	read_setting();
	if (lc.on && runtime_config.active)
		hook_objects();
	pthread_mutex_unlock(&lc_lock);
}

int libcall_traced(void)
{
	pthread_mutex_lock(&lc_lock);
	read_setting();
	int on = lc.on;
	pthread_mutex_unlock(&lc_lock);
	return on;
}
