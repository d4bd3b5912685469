/*
 * Applying a plan to the objects loaded now, before main runs: each plan
 * object is matched to a loaded one (by build ID, else by path), each of
 * its sites is checked against the code really there and gets its
 * trampoline, and only then are the jumps written, a run of neighbouring
 * pages at a time: RW, write, back to RX, never RWX.  The page changes go
 * through a raw system call, so that no libc code of ours runs from a
 * page made non-executable meanwhile (when libc itself is patched).
 *
 * What cannot be patched is skipped and told once per reason, with what
 * it means; the program runs either way, untraced where unpatched.
 */
#define _GNU_SOURCE
#include "patch.h"
#include "libcall_setting.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SEGMENTS_MAX 8

/* A loaded object as dl_iterate_phdr shows it. */
struct loaded {
	uintptr_t bias;
	const char *name;
	const uint8_t *build_id;
	size_t build_id_len;
	uintptr_t lo, hi;	/* all its segments */
	struct {
		uintptr_t lo, hi;
	} text[SEGMENTS_MAX];	/* its executable segments */
	int ntext;
};

/* The plan object sought, and where it was found. */
struct search {
	const struct patch_plan_object *want;
	const char *path;
	char exe[PATH_MAX];
	struct loaded found;
	int ok;
};

static const char *const refusal_text[SITE_REFUSALS] = {
#define SITE_REFUSAL_TEXT(name, code, phrase) [name] = phrase,
	SITE_REFUSAL_LIST(SITE_REFUSAL_TEXT)
#undef SITE_REFUSAL_TEXT
};

static long raw_mprotect(uintptr_t addr, size_t len, int prot)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_mprotect), "D"(addr), "S"(len), "d"((long)prot)
			 : "rcx", "r11", "memory");
	return ret;
}

static int same_path(const struct search *s, const char *name)
{
	char real[PATH_MAX];

	if (!*name)
		return s->exe[0] && strcmp(s->exe, s->path) == 0;
	return strcmp(name, s->path) == 0 ||
	       (realpath(name, real) && strcmp(real, s->path) == 0);
}

static int matches(const struct search *s, const struct loaded *l)
{
	const struct patch_plan_object *o = s->want;

	if (o->build_id_len)
		return l->build_id_len == o->build_id_len &&
		       memcmp(l->build_id, o->build_id, o->build_id_len) == 0;
	return same_path(s, l->name);
}

static int find_loaded(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct search *s = arg;
	struct loaded l = { .bias = info->dlpi_addr, .name = info->dlpi_name ? info->dlpi_name : "",
			    .lo = UINTPTR_MAX };

	(void)size;
	l.build_id = runtime_build_id(info, &l.build_id_len);
	if (!matches(s, &l))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t lo = l.bias + ph->p_vaddr, hi = lo + ph->p_memsz;
		if (lo < l.lo)
			l.lo = lo;
		if (hi > l.hi)
			l.hi = hi;
		if ((ph->p_flags & PF_X) && l.ntext < SEGMENTS_MAX) {
			l.text[l.ntext].lo = lo;
			l.text[l.ntext].hi = hi;
			l.ntext++;
		}
	}
	s->found = l;
	s->ok = 1;
	return 1;
}

static int in_text(const struct loaded *l, uintptr_t at, size_t len)
{
	for (int i = 0; i < l->ntext; i++)
		if (at >= l->text[i].lo && at <= l->text[i].hi && len <= l->text[i].hi - at)
			return 1;
	return 0;
}

/* Where site I's trampoline in the pool at POOL_RX is entered. */
static uintptr_t slot_entry(uintptr_t pool_rx, uint32_t i)
{
	return pool_rx + POOL_HEADER + (size_t)i * SITE_SLOT + SITE_ENTRY;
}

/* Checks site S against the code loaded in L. */
static enum site_refusal site_fits(const struct loaded *l, const struct patch_plan_site *s)
{
	uintptr_t at = s->addr + l->bias;

	if (!in_text(l, at, s->window) || (s->resume && !in_text(l, s->resume + l->bias, 1)))
		return SITE_OUTSIDE_TEXT;
	/* the kernel jumps to it with no return address on the stack */
	if (s->function + l->bias == getauxval(AT_ENTRY))
		return SITE_PROGRAM_ENTRY;
	if (memcmp((const void *)at, s->original, s->window) != 0)
		return SITE_BYTES_DIFFER;
	return SITE_OK;
}

/* How a site's entry is written. */
struct entry {
	uint8_t jump[PATCH_WINDOW_MAX];	/* over its window */
	uint8_t island[PATCH_ISLAND];	/* a short jump's: the jump to the trampoline */
	uint8_t trap;		/* an int3: the SIGTRAP handler must know it */
	uint8_t own_island;	/* the island is in padding, written on its own */
};

/* `jmp rel32` at AT (running address) to TO, into OUT. */
static enum site_refusal jmp32(uintptr_t at, uintptr_t to, uint8_t *out)
{
	int64_t d = (int64_t)(to - (at + 5));

	if (d < INT32_MIN || d > INT32_MAX)
		return SITE_OUT_OF_REACH;
	int32_t d32 = (int32_t)d;
	out[0] = 0xe9;
	memcpy(out + 1, &d32, 4);
	return SITE_OK;
}

/* The entry of site S, to its trampoline at SLOT_RX. */
static enum site_refusal entry_for(const struct loaded *l, const struct patch_plan_site *s,
				   uintptr_t slot_rx, struct entry *e)
{
	uintptr_t at = s->addr + l->bias;

	/* the bytes after the jump are never run: int3 stops anything that
	 * would jump into them despite the plan; a trap site is int3 alone */
	memset(e->jump, 0xcc, PATCH_WINDOW_MAX);
	e->trap = s->kind == PATCH_INT3;
	if (s->kind == PATCH_INT3)
		return SITE_OK;
	if (s->kind == PATCH_JMP32)
		return jmp32(at, slot_rx + SITE_ENTRY, e->jump);
	e->jump[0] = 0xeb;
	e->jump[1] = (uint8_t)(int8_t)(int64_t)(s->island - (s->addr + 2));
	return jmp32(s->island + l->bias, slot_rx + SITE_ENTRY, e->island);
}

/* A short jump whose island cannot be written enters by a trap instead:
 * its trampoline runs the same window. */
static void enter_by_trap(struct entry *e)
{
	memset(e->jump, 0xcc, PATCH_WINDOW_MAX);
	e->trap = 1;
	e->own_island = 0;
}

/* The site of object O whose window holds ADDR, or -1. */
static int64_t site_holding(const struct plan *p, const struct patch_plan_object *o, uint64_t addr)
{
	uint32_t lo = 0, hi = o->nsites;
	struct patch_plan_site s;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		plan_site(p, o->first_site + mid, &s);
		if (s.addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	plan_site(p, o->first_site + lo - 1, &s);
	return addr < s.addr + s.window ? (int64_t)lo - 1 : -1;
}

/*
 * Places the islands of the short jumps of O that WHY leaves SITE_OK:
 * into the jump of the site whose window holds it, past that jump, when
 * that site is patched by a 5-byte jump; else into padding still as the
 * plan saw it.  A short jump whose island cannot be placed enters by a
 * trap, through the same trampoline.
 */
static void place_islands(const struct plan *p, const struct patch_plan_object *o,
			  const struct loaded *l, const uint8_t *why, struct entry *e)
{
	for (uint32_t i = 0; i < o->nsites; i++) {
		struct patch_plan_site s, h;
		plan_site(p, o->first_site + i, &s);
		if (why[i] != SITE_OK || s.kind != PATCH_JMP8)
			continue;
		int64_t k = site_holding(p, o, s.island);
		if (k >= 0) {
			plan_site(p, o->first_site + (uint32_t)k, &h);
			if (why[k] == SITE_OK && h.kind == PATCH_JMP32 && s.island >= h.addr + 5 &&
			    s.island + PATCH_ISLAND <= h.addr + h.window)
				memcpy(e[k].jump + (s.island - h.addr), e[i].island, PATCH_ISLAND);
			else
				enter_by_trap(&e[i]);
		} else if (site_holding(p, o, s.island + PATCH_ISLAND - 1) < 0 &&
			   in_text(l, s.island + l->bias, PATCH_ISLAND) &&
			   !memcmp((const void *)(s.island + l->bias), s.island_original,
				   PATCH_ISLAND)) {
			e[i].own_island = 1;
		} else {
			enter_by_trap(&e[i]);
		}
	}
}

static size_t flush_notes(int fd, const struct patch_refusal *note, size_t n, const char *file)
{
	if (n && (fd < 0 || write(fd, note, n * sizeof(*note)) != (ssize_t)(n * sizeof(*note))))
		rt_warn("cannot note the unpatched functions for 'callscope info'", file);
	return 0;
}

/*
 * Tells once per reason how many sites of object O (at PATH; NULL: told
 * already) WHY refused, and notes each in the staging directory for the
 * recording.
 */
static void tell_refusals(const struct patch_plan_object *o, const char *path,
			  const uint8_t *why)
{
	uint32_t count[SITE_REFUSALS] = { 0 };
	struct patch_refusal note[64];
	size_t n = 0;
	char file[CONTRACT_PATH_MAX + sizeof(PATCH_REFUSED_FILE) + 1];
	char *fend = file + sizeof(file) - 1;
	char *f = rt_append(file, fend, runtime_config.contract.dir);
	int fd = -1;

	f = rt_append(f, fend, "/" PATCH_REFUSED_FILE);
	for (uint32_t i = 0; i < o->nsites; i++) {
		if (why[i] == SITE_OK)
			continue;
		count[why[i]]++;
		if (fd < 0 && f)
			fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		note[n++] = (struct patch_refusal){ o->first_site + i, why[i] };
		if (n == sizeof(note) / sizeof(*note))
			n = flush_notes(fd, note, n, file);
	}
	flush_notes(fd, note, n, file);
	if (fd >= 0)
		close(fd);
	for (int r = 1; path && r < SITE_REFUSALS; r++) {
		char line[256], *end = line + sizeof(line) - 1;
		if (!count[r])
			continue;
		char *p = rt_append_u64(line, end, count[r]);
		p = rt_append(p, end, " function(s) of '");
		p = rt_append(p, end, path);
		p = rt_append(p, end, "' left unpatched, untraced: ");
		p = rt_append(p, end, refusal_text[r]);
		rt_warn(p ? line : "functions left unpatched", "");
	}
}

static void tell_write_refused(const char *path, int err)
{
	const char *remedy = err == EACCES || err == EPERM
				     ? ": SELinux or a seccomp policy forbids changing code; allow "
				       "execmod (setsebool -P selinuxuser_execmod 1) or rebuild the "
				       "program with -pg"
				     : "";

	rt_warn_joined((const char *const[]){ "cannot make the code of '", path,
					      "' writable to patch it (", strerror(err), remedy,
					      "); it runs untraced", NULL },
		       "cannot patch code");
}

/* The pages site S's entry (of L, with its island when written on its
 * own) lies on: [*LO, *HI). */
static void entry_pages(const struct loaded *l, const struct patch_plan_site *s,
			const struct entry *e, uintptr_t page, uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t from = s->addr + l->bias, to = from + s->window;

	if (e->own_island) {
		uintptr_t at = s->island + l->bias;
		from = at < from ? at : from;
		to = at + PATCH_ISLAND > to ? at + PATCH_ISLAND : to;
	}
	*lo = from & ~(page - 1);
	*hi = (to + page - 1) & ~(page - 1);
}

/*
 * Writes the entries E of the sites WHY leaves SITE_OK, a run of
 * neighbouring pages at a time (a short jump's island in the same run as
 * its jump).  Returns 0, or an errno when pages cannot be made writable:
 * nothing of that run and the ones after is written then, and WHY says so
 * of their sites.
 */
static int write_jumps(const struct plan *p, const struct patch_plan_object *o,
		       const struct loaded *l, uint8_t *why, const struct entry *e)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uint32_t i = 0;

	while (i < o->nsites) {
		struct patch_plan_site s;
		uintptr_t lo, hi;
		if (why[i] != SITE_OK) {
			i++;
			continue;
		}
		plan_site(p, o->first_site + i, &s);
		entry_pages(l, &s, &e[i], page, &lo, &hi);
		uint32_t j = i + 1;
		for (; j < o->nsites; j++) {
			struct patch_plan_site n;
			uintptr_t nlo, nhi;
			plan_site(p, o->first_site + j, &n);
			entry_pages(l, &n, &e[j], page, &nlo, &nhi);
			if (nlo > hi)
				break;
			lo = nlo < lo ? nlo : lo;
			hi = nhi > hi ? nhi : hi;
		}
		long r = raw_mprotect(lo, hi - lo, PROT_READ | PROT_WRITE);
		if (r != 0) {
			for (uint32_t k = i; k < o->nsites; k++)
				if (why[k] == SITE_OK)
					why[k] = SITE_NOT_WRITABLE;
			return (int)-r;
		}
		for (uint32_t k = i; k < j; k++) {
			if (why[k] != SITE_OK)
				continue;
			plan_site(p, o->first_site + k, &s);
			memcpy((void *)(s.addr + l->bias), e[k].jump, s.window);
		}
		for (uint32_t k = i; k < j; k++) {
			plan_site(p, o->first_site + k, &s);
			if (why[k] == SITE_OK && e[k].own_island)
				memcpy((void *)(s.island + l->bias), e[k].island, PATCH_ISLAND);
		}
		r = raw_mprotect(lo, hi - lo, PROT_READ | PROT_EXEC);
		if (r != 0) {
			/* the code cannot run any more: nothing sensible is left */
			rt_warn("cannot make patched code executable again", strerror((int)-r));
			abort();
		}
		i = j;
	}
	return 0;
}

static void tell_live_refused(const char *path, int err)
{
	rt_warn_joined((const char *const[]){
			       "cannot patch '", path,
			       "', loaded while threads run: writing its code through /proc/self/mem "
			       "failed (",
			       strerror(err), "); it runs untraced", NULL },
		       "cannot patch a loaded object");
}

/* Writes the jumps of the sites WHY leaves SITE_OK while other threads
 * may run.  Returns 0, or an errno when nothing could be written (WHY
 * then says so). */
static int write_jumps_live(const struct plan *p, const struct patch_plan_object *o,
			    const struct loaded *l, uint8_t *why, const struct entry *e,
			    uintptr_t pool_rx)
{
	struct live_site *sites = calloc(o->nsites, sizeof(*sites));
	size_t n = 0;

	if (!sites)
		return ENOMEM;
	for (uint32_t i = 0; i < o->nsites; i++) {
		struct patch_plan_site s;
		if (why[i] != SITE_OK)
			continue;
		plan_site(p, o->first_site + i, &s);
		sites[n].trap.at = s.addr + l->bias;
		sites[n].trap.to = slot_entry(pool_rx, i);
		sites[n].window = s.window;
		memcpy(sites[n].jump, e[i].jump, PATCH_WINDOW_MAX);
		if (e[i].own_island) {
			sites[n].island = s.island + l->bias;
			memcpy(sites[n].island_jump, e[i].island, PATCH_ISLAND);
		}
		n++;
	}
	int err = n ? live_write_jumps(sites, n) : 0;
	free(sites);
	for (uint32_t i = 0; err && i < o->nsites; i++)
		if (why[i] == SITE_OK)
			why[i] = SITE_NOT_WRITABLE;
	return err;
}

/*
 * Makes the trap handler know the trap sites WHY leaves SITE_OK, before
 * their int3 is written (the live writing knows every site already);
 * WHY refuses them all when it cannot.
 */
static void add_traps(const struct plan *p, const struct patch_plan_object *o,
		      const struct loaded *l, uint8_t *why, const struct entry *e,
		      uintptr_t pool_rx)
{
	struct trap_site *traps = calloc(o->nsites ? o->nsites : 1, sizeof(*traps));
	size_t n = 0;

	for (uint32_t i = 0; traps && i < o->nsites; i++) {
		struct patch_plan_site s;
		plan_site(p, o->first_site + i, &s);
		if (why[i] == SITE_OK && e[i].trap)
			traps[n++] = (struct trap_site){ s.addr + l->bias, slot_entry(pool_rx, i) };
	}
	int err = !traps ? ENOMEM : n ? trap_sites_add(traps, n) : 0;
	free(traps);
	for (uint32_t i = 0; err && i < o->nsites; i++)
		if (why[i] == SITE_OK && e[i].trap)
			why[i] = SITE_NO_TRAP;
}

/* Gives the unwinders the unwind information of the slots WHY leaves
 * SITE_OK, before any jump leads into them. */
static void describe_slots(const struct plan *p, const struct patch_plan_object *o,
			   const uint8_t *why, const struct pool *pool)
{
	struct eh_frame f;

	eh_frame_begin(&f);
	for (uint32_t i = 0; i < o->nsites; i++) {
		struct patch_plan_site s;
		size_t off = POOL_HEADER + (size_t)i * SITE_SLOT;
		if (why[i] != SITE_OK)
			continue;
		plan_site(p, o->first_site + i, &s);
		eh_frame_slot(&f, pool->rx + off, pool->rw + off + SITE_BODY, s.code_len,
			      s.resume != 0);
	}
	eh_frame_end(&f);
	unwind_register(&f, pool->rx, pool->size, pool->rx + POOL_HEADER, SITE_SLOT, o->nsites);
	eh_frame_release(&f);
}

/* Patches plan object O, loaded as L; LIVE: other threads may run. */
static void patch_object(const struct plan *p, const struct patch_plan_object *o,
			 const struct loaded *l, const char *path, int live)
{
	struct pool pool;
	const char *why_not = NULL;
	uint8_t *why = calloc(o->nsites, 1);
	struct entry *e = calloc(o->nsites ? o->nsites : 1, sizeof(*e));

	if (!why || !e)
		goto out;
	if (pool_map(&pool, l->lo, l->hi, POOL_HEADER + (size_t)o->nsites * SITE_SLOT,
		     &why_not) != 0) {
		rt_warn_joined((const char *const[]){ "cannot place trampolines for '", path, "' (",
						      why_not, ": ", strerror(errno),
						      "); it runs untraced", NULL },
			       "cannot place trampolines");
		memset(why, SITE_NO_POOL, o->nsites);
		tell_refusals(o, NULL, why);
		goto out;
	}
	uintptr_t hooks[2] = { (uintptr_t)callscope_patch_entry, (uintptr_t)callscope_patch_exit };
	memcpy(pool.rw, hooks, sizeof(hooks));
	for (uint32_t i = 0; i < o->nsites; i++) {
		struct patch_plan_site s;
		size_t off = POOL_HEADER + (size_t)i * SITE_SLOT;
		plan_site(p, o->first_site + i, &s);
		enum site_refusal r = site_fits(l, &s);
		if (r == SITE_OK)
			r = site_build(p, &s, l->bias, pool.rx, pool.rw + off, pool.rx + off);
		if (r == SITE_OK)
			r = entry_for(l, &s, pool.rx + off, &e[i]);
		why[i] = (uint8_t)r;
	}
	describe_slots(p, o, why, &pool);
	pool_seal(&pool);
	patch_pools_add(pool.rx, pool.rx + pool.size);
	place_islands(p, o, l, why, e);
	if (!live)
		add_traps(p, o, l, why, e, pool.rx);
	int err = live ? write_jumps_live(p, o, l, why, e, pool.rx) : write_jumps(p, o, l, why, e);
	if (err && live)
		tell_live_refused(path, err);
	else if (err)
		tell_write_refused(path, err);
	else
		patch_objects_add(l->lo, l->hi);
	if (!err)
		moved_code_describe(p, o, why, l->bias, &pool);
	/* the whole object's refusal was told above */
	tell_refusals(o, err ? NULL : path, why);
out:
	free(why);
	free(e);
}

/* The plan applied at start-up, and which of its objects were met. */
static const struct plan *installed;
static uint8_t *met;
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

/* Patches the planned objects loaded now and not met before. */
static void apply_loaded(const struct plan *p, int live)
{
	struct search s;
	ssize_t n = readlink("/proc/self/exe", s.exe, sizeof(s.exe) - 1);

	s.exe[n > 0 ? n : 0] = '\0';
	for (uint32_t i = 0; i < p->hdr.nobjects; i++) {
		struct patch_plan_object o;
		if (met[i])
			continue;
		plan_object(p, i, &o);
		s.want = &o;
		s.path = plan_string(p, o.path);
		s.ok = 0;
		dl_iterate_phdr(find_loaded, &s);
		if (!s.ok)
			continue;
		met[i] = 1;
		if (o.nsites)
			patch_object(p, &o, &s.found, s.path, live);
	}
}

/* The loader's list changed (loader_hook.c): new objects are mapped, and
 * nothing runs in them yet. */
static void loader_changed(void)
{
	unwind_register_pending();
	pthread_mutex_lock(&loading);
	apply_loaded(installed, 0);
	pthread_mutex_unlock(&loading);
}

void patch_apply(const struct plan *p)
{
	met = calloc(p->hdr.nobjects ? p->hdr.nobjects : 1, 1);
	if (!met)
		return;
	installed = p;
	unwind_register_pending();
	apply_loaded(p, 0);
	uint32_t later = 0;
	for (uint32_t i = 0; i < p->hdr.nobjects; i++)
		later += !met[i];
	if (!later)
		return;
	/* objects loaded later are patched as the loader maps them, else
	 * when dlopen returns, which library-call tracing sees */
	const char *why = "CALLSCOPE_NO_LOADER_HOOK is set";
	if (!secure_getenv(NO_LOADER_HOOK_ENV) && loader_hook_install(loader_changed, &why) == 0)
		return;
	const char *libcall = secure_getenv(LIBCALL_ENV);
	int seen = libcall && *libcall;
	rt_warn_joined((const char *const[]){
			       seen ? "objects planned for dlopen are patched when it returns, if "
				      "traced code calls it: cannot follow the dynamic loader ("
				    : "objects planned for dlopen will run untraced: cannot follow "
				      "the dynamic loader (",
			       why,
			       seen ? ")"
				    : "), and library-call tracing, which sees dlopen return, is "
				      "off (--no-libcall)",
			       NULL },
		       "objects planned for dlopen may run untraced");
}

void patch_loaded(void)
{
	if (!installed)
		return;
	unwind_register_pending();
	pthread_mutex_lock(&loading);
	apply_loaded(installed, 1);
	pthread_mutex_unlock(&loading);
}
