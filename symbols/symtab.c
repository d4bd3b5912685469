/*
 * Address -> symbol for one recorded process image, through libdwfl.
 *
 * Each object gets its own Dwfl session.  A shared one would be smaller,
 * but libdwfl cannot take a module back once it is reported, and we only
 * learn that a file is the wrong one (build ID) after reporting it; one
 * session per object also keeps a corrupt or overlapping object from
 * disturbing the lookups of the others.
 *
 * We never ask libdwfl which module holds an address: the recorded PT_LOAD
 * segments say that, also for objects whose file we could not use.  An
 * address is turned into its link-time value (runtime - recorded bias) and
 * then into the module's own address space (+ libdwfl's bias for it), so an
 * ET_EXEC file, for which libdwfl ignores the base we give, still works.
 *
 * Results are memoized per address.  That is what makes "strings valid
 * until symtab_free()" cheap for synthesized names: each distinct address
 * allocates its "lib.so+0x1234" once, however often it is looked up.
 */
#include "symbols/symtab.h"
#include "symbols/alias.h"
#include "symbols/instrumented.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "partition.h"
#include "readfile.h"
#include "symbols/debug_files.h"
#include "symbols/elf_symbols.h"
#include "symbols/fde_table.h"
#include "symbols/plt.h"
#include "xalloc.h"

struct object {
	char *path;		/* as given; what symbol_info.object points to */
	const char *label;	/* prefix of synthesized names: basename, "[vdso]" */
	uint64_t bias;		/* recorded: runtime = link-time + bias */
	int status;		/* what symtab_add_object() returned */
	Dwfl *dwfl;		/* NULL when the file's symbols are not trusted */
	Dwfl_Module *mod;
	uint64_t mod_bias;	/* libdwfl's address = link-time + mod_bias */
	/* for addresses no symbol covers, read when first needed */
	struct fde_table fdes;	/* function starts */
	struct plt_symbols plt;	/* "memcpy@plt": the PLT's stubs */
	int unnamed_code_loaded;
	struct alias_index *aliases;	/* built when first needed */
	int hooks;			/* 1, 0, or -1 until looked at */
};

/* A runtime address range [start, end) belonging to objects[obj]. */
struct range {
	uint64_t start, end;
	uint64_t max_end;	/* max end of this and all earlier ranges */
	size_t obj;
};

#define NO_OBJECT ((size_t)-1)

struct cache_entry {
	uint64_t addr;
	int used;
	int have_line;		/* info.file and info.line are filled */
	size_t obj;		/* NO_OBJECT outside every object */
	struct symbol_info info;
};

struct symtab {
	struct object *objects;
	size_t nr_objects, alloc_objects;

	struct range *ranges;
	size_t nr_ranges, alloc_ranges;
	int ranges_sorted;

	/* Open addressing, linear probing; capacity a power of two. */
	struct cache_entry *cache;
	size_t cache_cap, cache_count;

	/* the names the objects import, for choosing among aliases; built
	 * when first needed, again once more objects came */
	struct alias_imports *imports;
	size_t imports_objects;

	/* Synthesized names; freed with the table. */
	char **names;
	size_t nr_names, alloc_names;
};

struct symtab *symtab_new(void)
{
	struct symtab *st = xcalloc(1, sizeof(*st));
	st->ranges_sorted = 1;
	return st;
}

void symtab_free(struct symtab *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nr_objects; i++) {
		if (st->objects[i].dwfl)
			dwfl_end(st->objects[i].dwfl);
		fde_table_release(&st->objects[i].fdes);
		plt_symbols_release(&st->objects[i].plt);
		alias_index_free(st->objects[i].aliases);
		free(st->objects[i].path);
	}
	alias_imports_free(st->imports);
	free(st->objects);
	free(st->ranges);
	free(st->cache);
	for (i = 0; i < st->nr_names; i++)
		free(st->names[i]);
	free(st->names);
	free(st);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/*
 * The kernel's vDSO (and the other bracketed pseudo-mappings) have no file
 * on disk; not finding one is expected, not worth a warning.
 */
static const char *pseudo_object_label(const char *path)
{
	const char *base = base_name(path);

	if (!strncmp(base, "linux-vdso", 10) || !strncmp(base, "linux-gate", 10) ||
	    !strcmp(path, "[vdso]"))
		return "[vdso]";
	if (path[0] == '[')
		return path;
	return NULL;
}

static void drop_cache(struct symtab *st)
{
	/* The names stay in st->names: callers may still hold them. */
	if (st->cache_count) {
		memset(st->cache, 0, st->cache_cap * sizeof(*st->cache));
		st->cache_count = 0;
	}
}

static void add_range(struct symtab *st, size_t obj, uint64_t start, uint64_t len)
{
	struct range *r;

	/* Recorded data is not trusted: an empty or wrapping range is dropped. */
	if (!len || start + len < start)
		return;
	ALLOC_GROW(st->ranges, st->nr_ranges + 1, st->alloc_ranges);
	r = &st->ranges[st->nr_ranges++];
	r->start = start;
	r->end = start + len;
	r->obj = obj;
	st->ranges_sorted = 0;
}

/*
 * Reports OBJ's file into a new Dwfl and checks its build ID.  Returns 0,
 * or -1 after the one warning line.
 */
static int load_object(struct object *obj, const uint8_t *build_id,
		       size_t build_id_len)
{
	const char *why = NULL;
	const unsigned char *file_id;
	GElf_Addr id_vaddr, mod_bias;
	GElf_Ehdr ehdr;
	Elf *elf;
	int fd, n;

	/* opened here so that a FIFO or a device named in a hostile data
	 * file can neither block nor be read */
	fd = open_regular(obj->path);
	if (fd < 0) {
		why = open_strerror(errno);
		goto unreadable;
	}

	obj->dwfl = dwfl_begin(&debug_files_callbacks);
	if (!obj->dwfl) {
		close(fd);
		why = dwfl_errmsg(-1);
		goto unreadable;
	}
	dwfl_report_begin(obj->dwfl);
	/*
	 * add_p_vaddr: the module's bias is then BASE itself for ET_DYN;
	 * libdwfl forces 0 for ET_EXEC, which mod_bias below accounts for.
	 */
	obj->mod = dwfl_report_elf(obj->dwfl, base_name(obj->path), obj->path,
				   fd, obj->bias, true);
	if (!obj->mod) {
		/* Not consumed on failure (libdwfl closes only fds it opened). */
		close(fd);
		why = dwfl_errmsg(-1);
		goto fail;
	}
	if (dwfl_report_end(obj->dwfl, NULL, NULL) != 0) {
		why = dwfl_errmsg(-1);
		goto fail;
	}

	elf = dwfl_module_getelf(obj->mod, &mod_bias);
	if (!elf || !gelf_getehdr(elf, &ehdr)) {
		why = dwfl_errmsg(-1);
		goto fail;
	}
	if (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN) {
		why = "not an executable or shared library";
		goto fail;
	}
	if (elf_sections_lost(elf)) {
		why = ELF_SECTIONS_LOST;
		goto fail;
	}
	obj->mod_bias = mod_bias;

	if (build_id_len) {
		n = dwfl_module_build_id(obj->mod, &file_id, &id_vaddr);
		if (n < 0 || (size_t)n != build_id_len ||
		    memcmp(file_id, build_id, build_id_len)) {
			warning("'%s' changed since the run (build ID differs); "
				"its functions are shown as addresses; "
				"profile the rebuilt binary again", obj->path);
			goto drop;
		}
	}
	return 0;

fail:
	dwfl_end(obj->dwfl);
	obj->dwfl = NULL;
	obj->mod = NULL;
unreadable:
	warning("cannot read '%s': %s; its functions are shown as addresses",
		obj->path, why ? why : "unknown error");
	return -1;
drop:
	dwfl_end(obj->dwfl);
	obj->dwfl = NULL;
	obj->mod = NULL;
	return -1;
}

int symtab_add_object(struct symtab *st, const char *path, uint64_t load_bias,
		      const uint8_t *build_id, size_t build_id_len,
		      const struct symtab_segment *segs, size_t nseg)
{
	struct object *obj;
	size_t i, idx;

	for (i = 0; i < st->nr_objects; i++)
		if (st->objects[i].bias == load_bias &&
		    !strcmp(st->objects[i].path, path))
			return st->objects[i].status;

	ALLOC_GROW(st->objects, st->nr_objects + 1, st->alloc_objects);
	idx = st->nr_objects++;
	obj = &st->objects[idx];
	memset(obj, 0, sizeof(*obj));
	obj->path = xstrdup(path);
	obj->bias = load_bias;
	obj->hooks = -1;
	obj->label = pseudo_object_label(obj->path);
	if (obj->label)
		obj->status = 0;
	else {
		obj->label = base_name(obj->path);
		obj->status = load_object(obj, build_id, build_id_len);
	}

	for (i = 0; i < nseg; i++)
		add_range(st, idx, segs[i].vaddr + load_bias, segs[i].memsz);
	if (!nseg && obj->mod) {
		/* No segments recorded: trust the file's own extent. */
		Dwarf_Addr start, end;

		dwfl_module_info(obj->mod, NULL, &start, &end, NULL, NULL,
				 NULL, NULL);
		if (end > start)
			add_range(st, idx, start - obj->mod_bias + load_bias,
				  end - start);
	}

	/* An address cached as outside every object may now be inside one. */
	drop_cache(st);
	return obj->status;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *ra = a, *rb = b;

	if (ra->start != rb->start)
		return ra->start < rb->start ? -1 : 1;
	/* The earlier object wins ties, as in find_object(). */
	return ra->obj < rb->obj ? -1 : ra->obj > rb->obj;
}

static void sort_ranges(struct symtab *st)
{
	uint64_t max_end = 0;
	size_t i;

	if (st->nr_ranges)	/* no object yet: no array */
		qsort(st->ranges, st->nr_ranges, sizeof(*st->ranges), cmp_range);
	for (i = 0; i < st->nr_ranges; i++) {
		if (st->ranges[i].end > max_end)
			max_end = st->ranges[i].end;
		st->ranges[i].max_end = max_end;
	}
	st->ranges_sorted = 1;
}

/*
 * Returns the index of the object whose segments hold ADDR, or NO_OBJECT.
 * Real processes have disjoint mappings; max_end keeps the answer right
 * (the lowest-starting containing range) for hostile overlapping ones.
 */
static size_t find_object(struct symtab *st, uint64_t addr)
{
	size_t lo, found = NO_OBJECT;

	if (!st->ranges_sorted)
		sort_ranges(st);
	/* First range starting above ADDR. */
	lo = PARTITION_POINT(st->nr_ranges, mid, st->ranges[mid].start <= addr);
	while (lo-- > 0 && st->ranges[lo].max_end > addr)
		if (addr < st->ranges[lo].end)
			found = st->ranges[lo].obj;
	return found;
}

static const char *keep_name(struct symtab *st, char *name)
{
	ALLOC_GROW(st->names, st->nr_names + 1, st->alloc_names);
	st->names[st->nr_names++] = name;
	return name;
}

static int module_has_hooks(Dwfl_Module *mod)
{
	int n = mod ? dwfl_module_getsymtab(mod) : 0;

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
		if (name && sym.st_shndx == SHN_UNDEF && program_hook_of(name))
			return 1;
	}
	return 0;
}

int symtab_object_has_hooks(struct symtab *st, const char *path)
{
	for (size_t i = 0; i < st->nr_objects; i++) {
		struct object *obj = &st->objects[i];
		if (strcmp(obj->path, path))
			continue;
		if (obj->hooks < 0)
			obj->hooks = module_has_hooks(obj->mod);
		return obj->hooks;
	}
	return 0;
}

static const struct alias_imports *imports_of(struct symtab *st)
{
	if (!st->imports || st->imports_objects != st->nr_objects) {
		Dwfl_Module **mods = xcalloc(st->nr_objects + 1, sizeof(*mods));
		for (size_t i = 0; i < st->nr_objects; i++)
			mods[i] = st->objects[i].mod;
		alias_imports_free(st->imports);
		st->imports = alias_imports_of(mods, st->nr_objects);
		st->imports_objects = st->nr_objects;
		free(mods);
	}
	return st->imports;
}

/* Reads OBJ's tables for addresses no symbol covers (OBJ has a module):
 * its FDEs and its PLT stubs, once, when first needed. */
static void load_unnamed_code(struct object *obj)
{
	GElf_Addr ignored;
	Elf *elf;

	if (obj->unnamed_code_loaded)
		return;
	obj->unnamed_code_loaded = 1;
	elf = dwfl_module_getelf(obj->mod, &ignored);
	if (!elf)
		return;
	fde_table_load(elf, &obj->fdes);
	plt_symbols_load(elf, &obj->plt);
}

static void resolve_symbol(struct symtab *st, struct cache_entry *e)
{
	struct symbol_info *out = &e->info;
	uint64_t addr = e->addr;
	struct object *obj;
	uint64_t link;

	memset(out, 0, sizeof(*out));
	if (e->obj == NO_OBJECT) {
		out->name = keep_name(st, xasprintf("0x%" PRIx64, addr));
		out->start = addr;
		return;
	}

	obj = &st->objects[e->obj];
	link = addr - obj->bias;
	out->object = obj->path;
	out->in_object = 1;
	if (obj->mod) {
		GElf_Off off;
		GElf_Sym sym;
		const char *name;

		name = dwfl_module_addrinfo(obj->mod, link + obj->mod_bias,
					    &off, &sym, NULL, NULL, NULL);
		/*
		 * libdwfl may answer with the nearest symbol below even when
		 * its size says ADDR is past its end (a PLT stub, padding):
		 * naming such an address after that symbol would be wrong.
		 */
		int covered = name && *name && (!sym.st_size || off < sym.st_size);
		/* A PLT stub is named when no symbol covers it, or only a
		 * sizeless one from below; a symbol at the stub's own
		 * address is a real name for it and wins. */
		const struct plt_symbol *stub = NULL;
		if (!covered || !sym.st_size) {
			load_unnamed_code(obj);
			stub = plt_symbols_lookup(&obj->plt, link);
		}
		if (stub && (!covered || stub->start > link - off)) {
			out->name = stub->name;
			out->start = stub->start;
			out->size = stub->size;
			return;
		}
		if (covered) {
			/* the function may have aliases, and libdwfl answers
			 * with any of them: the name is chosen at its entry
			 * for every address inside, so that a sample's PC and
			 * a call's address name it alike */
			name = alias_preferred(&obj->aliases, obj->mod,
					       link - off + obj->mod_bias, name,
					       imports_of(st));
			out->name = name;
			out->start = link - off;
			out->size = sym.st_size;
			out->ifunc = GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
			return;
		}
		/* No symbol covers it (a stripped object, a static function):
		 * one name per function, not per address, from the FDEs */
		uint64_t start, size;
		load_unnamed_code(obj);
		if (fde_table_lookup(&obj->fdes, link, &start, &size) == 0 &&
		    (!name || !*name || start > link - off)) {
			out->name = keep_name(st, xasprintf("%s+0x%" PRIx64, obj->label, start));
			out->start = start;
			out->size = size;
			return;
		}
	}
	out->name = keep_name(st, xasprintf("%s+0x%" PRIx64, obj->label, link));
	out->start = link;
}

static void resolve_line(struct symtab *st, struct cache_entry *e)
{
	struct object *obj;
	Dwfl_Line *line;
	const char *file;
	int lineno = 0;

	e->have_line = 1;
	if (e->obj == NO_OBJECT)
		return;
	obj = &st->objects[e->obj];
	if (!obj->mod)
		return;
	line = dwfl_module_getsrc(obj->mod, e->addr - obj->bias + obj->mod_bias);
	if (!line)
		return;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!file)
		return;
	/* a source compiled as ../src/f.c in a build directory is found
	 * from that directory, as gdb, addr2line and perf find it, not from
	 * wherever the report runs */
	const char *dir = file[0] == '/' ? NULL : dwfl_line_comp_dir(line);
	if (dir && *dir)
		file = keep_name(st, xasprintf("%s/%s", dir, file));
	e->info.file = file;
	e->info.line = lineno;
}

static size_t cache_slot(const struct symtab *st, uint64_t addr)
{
	/* Fibonacci hashing: code addresses differ mostly in low bits. */
	return (size_t)((addr * UINT64_C(0x9e3779b97f4a7c15)) >> 32) &
	       (st->cache_cap - 1);
}

static void cache_grow(struct symtab *st)
{
	struct cache_entry *old = st->cache;
	size_t old_cap = st->cache_cap, i;

	st->cache_cap = old_cap ? old_cap * 2 : 1024;
	st->cache = xcalloc(st->cache_cap, sizeof(*st->cache));
	for (i = 0; i < old_cap; i++) {
		size_t j;

		if (!old[i].used)
			continue;
		j = cache_slot(st, old[i].addr);
		while (st->cache[j].used)
			j = (j + 1) & (st->cache_cap - 1);
		st->cache[j] = old[i];
	}
	free(old);
}

/* Returns ADDR's entry, creating (and resolving the symbol of) a new one. */
static struct cache_entry *cache_get(struct symtab *st, uint64_t addr)
{
	struct cache_entry *e;
	size_t j;

	if ((st->cache_count + 1) * 2 > st->cache_cap)
		cache_grow(st);
	j = cache_slot(st, addr);
	while (st->cache[j].used) {
		if (st->cache[j].addr == addr)
			return &st->cache[j];
		j = (j + 1) & (st->cache_cap - 1);
	}
	e = &st->cache[j];
	e->used = 1;
	e->addr = addr;
	e->obj = find_object(st, addr);
	st->cache_count++;
	resolve_symbol(st, e);
	return e;
}

void symtab_lookup(struct symtab *st, uint64_t addr, int want_line,
		   struct symbol_info *out)
{
	struct cache_entry *e = cache_get(st, addr);

	if (want_line && !e->have_line)
		resolve_line(st, e);
	*out = e->info;
	if (!want_line) {
		out->file = NULL;
		out->line = 0;
	}
}
