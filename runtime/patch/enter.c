/*
 * The C side of a patched function's trampoline (patch.h has its layout,
 * arch/x86_64/patch.S the hooks).  The entry enters the shadow stack as
 * __fentry__ does, the frame being the function's return-address slot, and
 * the function's real return address is kept in that frame.  Then the
 * trampoline calls the relocated body, whose return comes back to the
 * trampoline: call and ret stay balanced, and the stack holds only
 * addresses a call wrote (return-stack predictors and shadow stacks are
 * not misled); the exit hook takes the frame off and returns through the
 * real address.
 *
 * When the entry does not redirect the return (the thread does not
 * record, the call was dropped, or it was reached by a jump), the body is
 * run in place of the function with the slot untouched, as if unpatched.
 * A function reached by a tail call from a patched function finds that
 * function's trampoline in its slot: it is entered as a tail call, and
 * returns with its caller.  A loop whose head is the function's first
 * instruction jumps back into the trampoline from the body: the open call
 * of the function at that slot goes on, and no new one is counted: -pg's
 * build starts such a loop past its hook.  But a function whose jump to
 * its own entry follows its epilogue (the plan's PATCH_SELF_TAIL) calls
 * itself by a tail call, as -pg's build does through its hook: a new
 * call, entered as any tail call is.
 */
#define _GNU_SOURCE
#include "patch.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

extern char callscope_return_trampoline[] HIDDEN;

#define POOLS_MAX 256

struct range {
	uintptr_t lo, hi;
};

/* The pools made so far, and the objects patched; only ever added to
 * (by one thread: start-up, then the loader's lock), read by any. */
static struct range pools[POOLS_MAX], patched[POOLS_MAX];
static uint32_t npools, npatched;

static void add_range(struct range *table, uint32_t *n, uintptr_t lo, uintptr_t hi)
{
	uint32_t i = *n;

	if (i == POOLS_MAX)
		return;
	table[i].lo = lo;
	table[i].hi = hi;
	__atomic_store_n(n, i + 1, __ATOMIC_RELEASE);
}

void patch_pools_add(uintptr_t lo, uintptr_t hi)
{
	add_range(pools, &npools, lo, hi);
}

void patch_objects_add(uintptr_t lo, uintptr_t hi)
{
	add_range(patched, &npatched, lo, hi);
}

int patch_covers(uintptr_t addr)
{
	uint32_t n = __atomic_load_n(&npatched, __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < n; i++)
		if (addr >= patched[i].lo && addr < patched[i].hi)
			return 1;
	return 0;
}

/* The offset of ADDR in a trampoline slot of a pool, or -1 outside. */
static long slot_offset(uintptr_t addr)
{
	uint32_t n = __atomic_load_n(&npools, __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < n; i++)
		if (addr - pools[i].lo - POOL_HEADER < pools[i].hi - pools[i].lo - POOL_HEADER)
			return (long)((addr - pools[i].lo - POOL_HEADER) % SITE_SLOT);
	return -1;
}

int patch_is_return_point(uintptr_t addr)
{
	return slot_offset(addr) == SITE_RETURN;
}

int patch_is_own_code(uintptr_t pc)
{
	long off = slot_offset(pc);

	return off >= 0 && off < SITE_BODY;
}

/* The function a trampoline is for: its first 8 bytes (patch.h). */
static inline uint64_t trampoline_function(const uint8_t *trampoline)
{
	uint64_t function;

	memcpy(&function, trampoline, sizeof(function));
	return function;
}

uintptr_t patch_entry_function(uintptr_t pc)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	int32_t rel;

	if (!patch_covers(pc))
		return 0;
	/* the bytes at PC are code the thread was running; a jump written
	 * past an endbr64 has the function begin with it */
	size_t i = 0;
	while (i < sizeof(endbr64) && ((const uint8_t *)pc)[i] == endbr64[i])
		i++;	/* a byte is read only when those before it matched */
	if (i == sizeof(endbr64))
		pc += sizeof(endbr64);
	/* the `jmp rel32` apply.c wrote over the entry leads to a slot's
	 * SITE_ENTRY, and the slot begins with the function's address */
	if (*(const uint8_t *)pc != 0xe9)
		return 0;
	__builtin_memcpy(&rel, (const uint8_t *)pc + 1, sizeof(rel));
	uintptr_t entry = pc + 5 + (uintptr_t)(intptr_t)rel;
	if (slot_offset(entry) != SITE_ENTRY)
		return 0;
	return (uintptr_t)trampoline_function((const uint8_t *)(entry - SITE_ENTRY));
}

/* What the entry hook tells the trampoline (patch.S). */
enum entry_answer {
	ENTRY_CALL = 0,		/* the return is redirected: call the body */
	ENTRY_IN_PLACE = 1,	/* run the body with the slot untouched */
};

static inline enum entry_answer enter(struct thread_state *t, uintptr_t *slot,
				      const uint8_t *after_entry)
{
	uint64_t function = trampoline_function(after_entry - SITE_AFTER_ENTRY);
	uintptr_t ret = *slot;

	if (UNLIKELY(patch_is_return_point(ret))) {
		/* the function itself open at this slot: its body jumped back
		 * to the entry (its own trampoline's return in the slot, or
		 * that of the function that tail-called it) */
		struct shadow_frame *top = t->depth ? &t->stack[t->depth - 1] : NULL;
		if (top && top->addr == function && top->sp == (uintptr_t)slot &&
		    !(after_entry[SITE_FLAGS - SITE_AFTER_ENTRY] & PATCH_SELF_TAIL))
			return ENTRY_IN_PLACE;
		/* a tail call: trace.c knows one by the -pg trampoline in
		 * the slot, and the frame keeps its return address */
		*slot = (uintptr_t)callscope_return_trampoline;
		trace_enter(t, function, (uintptr_t)slot, slot);
		*slot = ret;
		return ENTRY_IN_PLACE;
	}
	trace_enter(t, function, (uintptr_t)slot, slot);
	return ret != (uintptr_t)callscope_return_trampoline &&
			       *slot == (uintptr_t)callscope_return_trampoline
		       ? ENTRY_CALL
		       : ENTRY_IN_PLACE;
}

HIDDEN __attribute__((no_instrument_function)) int
callscope_patch_enter(uintptr_t *slot, const uint8_t *after_entry)
{
	struct thread_state *t = trace_current();

	if (!runtime_thread_ready(t))
		return ENTRY_IN_PLACE;
	/*
	 * --time-by=samples redirects no return here (returns_redirected()),
	 * so no slot holds a trampoline's return point and the body always
	 * runs in place: the entry is the one a -mfentry function's hook
	 * makes, and takes its short path.  Through enter() and
	 * sampled_count_enter() instead, the hooks cost 2.5 times as much
	 * a call, and beside them the program's short functions take up to
	 * 2.6 times their time in a plain run (bench/RESULTS.md): the shares
	 * that perf finds in the plain run move by more than the issue's
	 * 3 points.
	 */
	if (runtime_config.contract.time_by_samples && !returns_redirected()) {
		uint64_t function = trampoline_function(after_entry - SITE_AFTER_ENTRY);
		if (LIKELY(!callscope_hook_enter_sampled(slot, function)))
			return ENTRY_IN_PLACE;
	}
	return enter(t, slot, after_entry);
}

/*
 * Reads the plan the launcher left in the staging directory and patches
 * the objects loaded now.  The plan stays mapped: objects loaded later
 * are patched from it too.  A plan that cannot be read or is damaged
 * leaves the program running untraced, with one line saying why.
 */
void patch_install(void)
{
	static struct plan plan;
	char path[CONTRACT_PATH_MAX + sizeof(PATCH_PLAN_FILE) + 1];
	char *end = path + sizeof(path) - 1;
	char *p = rt_append(path, end, runtime_config.contract.dir);
	const char *why = NULL;
	struct stat st;

	p = rt_append(p, end, "/" PATCH_PLAN_FILE);
	int fd = p ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
		rt_warn("cannot read the patch plan; the program runs untraced", path);
		if (fd >= 0)
			close(fd);
		return;
	}
	void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (data == MAP_FAILED) {
		rt_warn("cannot map the patch plan; the program runs untraced", path);
		return;
	}
	if (plan_check(data, (size_t)st.st_size, &plan, &why) != 0) {
		rt_warn_joined((const char *const[]){ "the patch plan is damaged (", why,
						      "); the program runs untraced", NULL },
			       "the patch plan is damaged");
		munmap(data, (size_t)st.st_size);
		return;
	}
	patch_apply(&plan);
}
