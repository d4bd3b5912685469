/*
 * Patched function entries: the runtime's side of `record --patch`.  The
 * launcher analysed the program and wrote a plan (common/patch_plan.h);
 * here the plan is checked (plan.c), trampolines are built in memory
 * within reach of each object (pool.c, site.c), and the jumps are written
 * into the text (apply.c).  The trampolines enter the shadow stack
 * through enter.c and arch/x86_64/patch.S.
 */
#ifndef CALLSCOPE_RUNTIME_PATCH_H
#define CALLSCOPE_RUNTIME_PATCH_H

#include "../runtime.h"
#include "patch_plan.h"

#include <stddef.h>

/* A plan whose counts and offsets were all checked against its size.
 * The arrays may be unaligned in the file: read them with plan_site()
 * and the like, which copy. */
struct plan {
	const uint8_t *data;
	size_t size;
	struct patch_plan_header hdr;
	size_t objects_at, sites_at, fixups_at, code_at, strings_at;
};

/*
 * Checks DATA (SIZE bytes) as a plan and fills *OUT, which borrows DATA.
 * Returns 0, or -1 with *WHY saying what is wrong.  Nothing in DATA is
 * trusted: every count, offset and length is checked before use.
 */
int plan_check(const uint8_t *data, size_t size, struct plan *out, const char **why);
void plan_object(const struct plan *p, uint32_t i, struct patch_plan_object *out);
void plan_site(const struct plan *p, uint32_t i, struct patch_plan_site *out);
void plan_fixup(const struct plan *p, uint32_t i, struct patch_plan_fixup *out);
static inline const uint8_t *plan_code(const struct plan *p, uint32_t off)
{
	return p->data + p->code_at + off;
}
static inline const char *plan_string(const struct plan *p, uint32_t off)
{
	return (const char *)p->data + p->strings_at + off;
}

/*
 * One trampoline per site, in a fixed-size slot of a pool:
 *
 *     0   the function's address (8 bytes)
 *     8   call *entry(%rip)       the entry hook (patch.S)
 *     14  jnz  body               the hook asks for no exit: run the body in place
 *     20  lea  8(%rsp), %rsp      the real return address is on the shadow stack
 *     25  call body               so the body returns here, balanced
 *     30  lea  -8(%rsp), %rsp     the slot again, for the real return address
 *     35  call *exit(%rip)        the exit hook puts it there
 *     41  ret                     and returns through it, balanced too
 *     42  the site's enum patch_site_flags (never run: after the ret)
 *     48  body: the displaced instructions, relocated, then jmp resume
 */
#define SITE_SLOT 128u
#define SITE_ENTRY 8u		/* where the text's jump lands */
#define SITE_AFTER_ENTRY 14u	/* the entry hook's return address */
#define SITE_RETURN 30u		/* the body's return address */
#define SITE_FLAGS 42u
#define SITE_BODY 48u
#define SITE_BODY_MAX (SITE_SLOT - SITE_BODY - 5u)

/* A pool starts with the hooks' addresses, read by the slots' calls. */
#define POOL_HEADER 64u

/*
 * Trampoline memory within reach (rel32) of [LO, HI): a memfd mapped twice,
 * RW to write the slots and RX to run them, never both at once.
 */
struct pool {
	uint8_t *rw;
	uintptr_t rx;
	size_t size;
};

/* Maps a pool of SIZE bytes whose every byte is within 2 GiB of [LO, HI).
 * Returns 0, or -1 with errno set and *WHY naming the step that failed. */
int pool_map(struct pool *p, uintptr_t lo, uintptr_t hi, size_t size, const char **why);
/* Drops the writable view once every slot is written. */
void pool_seal(struct pool *p);
void pool_unmap(struct pool *p);

/* Makes the pool [LO, HI) known to the hooks (patch_is_return_point()),
 * before any jump leads into it. */
void patch_pools_add(uintptr_t lo, uintptr_t hi);
/* Counts the object [LO, HI) as patched (patch_covers()), once its jumps
 * are written. */
void patch_objects_add(uintptr_t lo, uintptr_t hi);

/* Why a site was not patched (enum site_refusal, common/patch_plan.h):
 * counted per reason, told once, and noted in the recording. */

/* Writes the slot of site S (of an object loaded at BIAS) at SLOT_RW,
 * which runs at SLOT_RX in the pool whose header runs at POOL.  Returns
 * SITE_OK or why it cannot. */
enum site_refusal site_build(const struct plan *p, const struct patch_plan_site *s,
			     uintptr_t bias, uintptr_t pool, uint8_t *slot_rw, uintptr_t slot_rx);

/* unwind_info.c: .eh_frame for the trampolines and the runtime's return
 * points, which unwind_register.c hands to the unwinders.  A builder
 * that ran out of memory says so in FAILED and holds nothing usable. */
struct eh_frame {
	uint8_t *data;
	size_t len, cap;
	int failed;
};
/* Starts F with its CIE. */
void eh_frame_begin(struct eh_frame *f);
/* The FDE of the slot running at SLOT whose body (BODY_LEN bytes, read
 * from BODY) jumps back into the function when RESUMES. */
void eh_frame_slot(struct eh_frame *f, uintptr_t slot, const uint8_t *body, size_t body_len,
		   int resumes);
/* The FDE of a return point at AT, a nop before it: the real return
 * address is the shadow stack's. */
void eh_frame_return_point(struct eh_frame *f, uintptr_t at);
/* Ends F with the terminator the unwinders expect. */
void eh_frame_end(struct eh_frame *f);
void eh_frame_release(struct eh_frame *f);

/* unwind_register.c: makes F (ended) known to libgcc's unwinder and to
 * gdb, with a symbol for each of NSLOTS slots of SLOT_SIZE bytes from
 * FIRST_SLOT in the code [TEXT, TEXT + TEXT_LEN) (no code, no symbols:
 * 0).  F is copied; the copy stays for the process's life. */
void unwind_register(const struct eh_frame *f, uintptr_t text, size_t text_len,
		     uintptr_t first_slot, size_t slot_size, uint32_t nslots);
/* Looks for libgcc's unwinder again and registers with it what was made
 * before it was loaded (a C program loads it only for backtrace() or
 * thread cancellation).  It asks the dynamic loader (dlsym): never call it
 * holding a lock that a thread inside the loader may wait for. */
void unwind_register_pending(void);

/* moved.c: describes in the recording where the displaced instructions
 * of object O's sites that WHY leaves SITE_OK run (the object loaded at
 * BIAS, its trampolines in POOL), once their jumps are written. */
void moved_code_describe(const struct plan *p, const struct patch_plan_object *o,
			 const uint8_t *why, uintptr_t bias, const struct pool *pool);

/* apply.c: patches the objects of the plan that are loaded now, before
 * other threads run; P stays valid for patch_loaded(). */
void patch_apply(const struct plan *p);

/* trap.c: an int3 at AT that sends the thread on to TO. */
struct trap_site {
	uintptr_t at, to;
};
/* Makes the SIGTRAP handler know SITES (N, sorted by address), for good;
 * returns 0 or the errno that kept it from it. */
int trap_sites_add(const struct trap_site *sites, size_t n);

/* live.c: a jump to write while other threads may run. */
struct live_site {
	struct trap_site trap;	/* the window, and where a thread trapped at it goes on */
	uintptr_t island;	/* a short jump's island in padding, or 0 */
	uint8_t island_jump[PATCH_ISLAND];
	uint8_t window;
	uint8_t jump[PATCH_WINDOW_MAX];
};
/* Writes SITES (N, sorted by address) into running code; returns 0 or
 * the errno that stopped it before anything was written. */
int live_write_jumps(const struct live_site *sites, size_t n);

/* Writes N bytes of running code at AT through /proc/self/mem, the first
 * byte last, for code whose later bytes no thread runs until the first
 * changes; returns 0 or an errno. */
int live_write_code(uintptr_t at, const uint8_t *bytes, size_t n);

/* loader_hook.c: has CHANGED called each time the dynamic loader's list
 * of objects changes, new objects mapped but not yet relocated or
 * initialized.  Returns 0, or -1 with *WHY (and errno where one applies)
 * saying why it cannot. */
int loader_hook_install(void (*changed)(void), const char **why);
/* Set, it keeps the hook out: later objects are then patched as dlopen
 * returns, while their threads may run (tests and benchmarks of that way). */
#define NO_LOADER_HOOK_ENV "CALLSCOPE_NO_LOADER_HOOK"

/* enter.c: the C side of the entry hook (patch.S): returns what the
 * trampoline does next (enum entry_answer). */
int callscope_patch_enter(uintptr_t *slot, const uint8_t *after_entry);

/* The entry and exit hooks' addresses (patch.S). */
extern char callscope_patch_entry[] HIDDEN;
extern char callscope_patch_exit[] HIDDEN;

#endif
