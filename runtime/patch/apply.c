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
	[SITE_OUTSIDE_TEXT] = "its window is not in the object's code",
	[SITE_PROGRAM_ENTRY] = "it is the program's entry point, which no call enters",
	[SITE_BYTES_DIFFER] = "its code differs from the planned (the binary changed since)",
	[SITE_TOO_LONG] = "its relocated code is too long for a trampoline",
	[SITE_OUT_OF_REACH] = "a displacement does not reach from its trampoline",
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

/* The jump over site S's window, to its trampoline at SLOT_RX. */
static enum site_refusal jump_for(const struct loaded *l, const struct patch_plan_site *s,
				  uintptr_t slot_rx, uint8_t out[PATCH_WINDOW_MAX])
{
	uintptr_t at = s->addr + l->bias;
	int64_t d = (int64_t)(slot_rx + SITE_ENTRY - (at + 5));

	if (d < INT32_MIN || d > INT32_MAX)
		return SITE_OUT_OF_REACH;
	int32_t d32 = (int32_t)d;
	/* the bytes after the jump are never run: int3 stops anything that
	 * would jump into them despite the plan */
	memset(out, 0xcc, PATCH_WINDOW_MAX);
	out[0] = 0xe9;
	memcpy(out + 1, &d32, 4);
	return SITE_OK;
}

static void tell_refusals(const char *path, const uint32_t count[SITE_REFUSALS])
{
	for (int r = 1; r < SITE_REFUSALS; r++) {
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
	char line[400], *end = line + sizeof(line) - 1;
	char *p = rt_append(line, end, "cannot make the code of '");

	p = rt_append(p, end, path);
	p = rt_append(p, end, "' writable to patch it (");
	p = rt_append(p, end, strerror(err));
	p = rt_append(p, end, err == EACCES || err == EPERM
				      ? ": SELinux or a seccomp policy forbids changing code; allow "
					"execmod (setsebool -P selinuxuser_execmod 1) or rebuild the "
					"program with -pg); it runs untraced"
				      : "); it runs untraced");
	rt_warn(p ? line : "cannot patch code", "");
}

/*
 * Writes JUMPS[i] over the windows of the sites marked in OK, a run of
 * neighbouring pages at a time.  Returns 0, or an errno when the pages
 * cannot be made writable (nothing of that run is written then).
 */
static int write_jumps(const struct plan *p, const struct patch_plan_object *o,
		       const struct loaded *l, const uint8_t *ok,
		       const uint8_t (*jumps)[PATCH_WINDOW_MAX])
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uint32_t i = 0;

	while (i < o->nsites) {
		struct patch_plan_site s;
		if (!ok[i]) {
			i++;
			continue;
		}
		plan_site(p, o->first_site + i, &s);
		uintptr_t lo = (s.addr + l->bias) & ~(page - 1);
		uintptr_t hi = (s.addr + l->bias + s.window + page - 1) & ~(page - 1);
		uint32_t j = i + 1;
		for (; j < o->nsites; j++) {
			struct patch_plan_site n;
			plan_site(p, o->first_site + j, &n);
			uintptr_t nlo = (n.addr + l->bias) & ~(page - 1);
			if (nlo > hi)
				break;
			uintptr_t nhi = (n.addr + l->bias + n.window + page - 1) & ~(page - 1);
			if (nhi > hi)
				hi = nhi;
		}
		long r = raw_mprotect(lo, hi - lo, PROT_READ | PROT_WRITE);
		if (r != 0)
			return (int)-r;
		for (uint32_t k = i; k < j; k++) {
			if (!ok[k])
				continue;
			plan_site(p, o->first_site + k, &s);
			memcpy((void *)(s.addr + l->bias), jumps[k], s.window);
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
	char line[400], *end = line + sizeof(line) - 1;
	char *p = rt_append(line, end, "cannot patch '");

	p = rt_append(p, end, path);
	p = rt_append(p, end, "', loaded while threads run: writing its code through /proc/self/mem failed (");
	p = rt_append(p, end, strerror(err));
	p = rt_append(p, end, "); it runs untraced");
	rt_warn(p ? line : "cannot patch a loaded object", "");
}

/* Writes the jumps of the sites marked in OK while other threads may run.
 * Returns 0, or an errno when nothing could be written. */
static int write_jumps_live(const struct plan *p, const struct patch_plan_object *o,
			    const struct loaded *l, const uint8_t *ok,
			    const uint8_t (*jumps)[PATCH_WINDOW_MAX], uintptr_t pool_rx)
{
	struct live_site *sites = calloc(o->nsites, sizeof(*sites));
	size_t n = 0;

	if (!sites)
		return ENOMEM;
	for (uint32_t i = 0; i < o->nsites; i++) {
		struct patch_plan_site s;
		if (!ok[i])
			continue;
		plan_site(p, o->first_site + i, &s);
		sites[n].at = s.addr + l->bias;
		sites[n].to = pool_rx + POOL_HEADER + (size_t)i * SITE_SLOT + SITE_ENTRY;
		sites[n].window = s.window;
		memcpy(sites[n].jump, jumps[i], PATCH_WINDOW_MAX);
		n++;
	}
	int err = n ? live_write_jumps(sites, n) : 0;
	free(sites);
	return err;
}

/* Gives the unwinders the unwind information of the slots marked in OK,
 * before any jump leads into them. */
static void describe_slots(const struct plan *p, const struct patch_plan_object *o,
			   const uint8_t *ok, const struct pool *pool)
{
	struct eh_frame f;

	eh_frame_begin(&f);
	for (uint32_t i = 0; i < o->nsites; i++) {
		struct patch_plan_site s;
		size_t off = POOL_HEADER + (size_t)i * SITE_SLOT;
		if (!ok[i])
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
	uint32_t refused[SITE_REFUSALS] = { 0 };
	struct pool pool;
	const char *why = NULL;
	uint8_t *ok = calloc(o->nsites, 1);
	uint8_t (*jumps)[PATCH_WINDOW_MAX] = calloc(o->nsites, PATCH_WINDOW_MAX);

	if (!ok || !jumps)
		goto out;
	if (pool_map(&pool, l->lo, l->hi, POOL_HEADER + (size_t)o->nsites * SITE_SLOT, &why) != 0) {
		char line[300], *end = line + sizeof(line) - 1;
		char *q = rt_append(line, end, "cannot place trampolines for '");
		q = rt_append(q, end, path);
		q = rt_append(q, end, "' (");
		q = rt_append(q, end, why);
		q = rt_append(q, end, ": ");
		q = rt_append(q, end, strerror(errno));
		q = rt_append(q, end, "); it runs untraced");
		rt_warn(q ? line : "cannot place trampolines", "");
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
			r = jump_for(l, &s, pool.rx + off, jumps[i]);
		ok[i] = r == SITE_OK;
		refused[r]++;
	}
	describe_slots(p, o, ok, &pool);
	pool_seal(&pool);
	patch_pools_add(pool.rx, pool.rx + pool.size);
	tell_refusals(path, refused);
	int err = live ? write_jumps_live(p, o, l, ok, (const uint8_t (*)[PATCH_WINDOW_MAX])jumps,
					  pool.rx)
		       : write_jumps(p, o, l, ok, (const uint8_t (*)[PATCH_WINDOW_MAX])jumps);
	if (err && live)
		tell_live_refused(path, err);
	else if (err)
		tell_write_refused(path, err);
	else
		patch_objects_add(l->lo, l->hi);
out:
	free(ok);
	free(jumps);
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
	char line[400], *end = line + sizeof(line) - 1;
	char *q = rt_append(line, end, seen ? "objects planned for dlopen are patched when it "
					       "returns, if traced code calls it: cannot follow "
					       "the dynamic loader ("
					     : "objects planned for dlopen will run untraced: cannot "
					       "follow the dynamic loader (");
	q = rt_append(q, end, why);
	q = rt_append(q, end, seen ? ")"
				   : "), and library-call tracing, which sees dlopen return, is off "
				     "(--no-libcall)");
	rt_warn(q ? line : "objects planned for dlopen may run untraced", "");
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
