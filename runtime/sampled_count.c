/*
 * record --mode=count --time-by=samples: the hooks count each call on its
 * call path and read no clock; time comes from the sampler, whose timer
 * signal adds to the path the thread is in (sampler.c calls
 * sampled_count_sample()).  That path is exact, read from the shadow
 * stack, with no unwinding.
 *
 * Returns are not redirected, so a -pg function's return is not seen when
 * it happens: a frame is known to be gone once the stack pointer has moved
 * above its return slot.  The next entry drops such frames (a new frame
 * at or above an open one means that one returned, as trace.c reasons
 * about longjmp), and a sample skips the ones its stack pointer has left.
 * -finstrument-functions frames are popped by their exit hooks; the hooks
 * of a function inlined into another run at that one's stack pointer, and
 * nest in it (inlined_depth()).
 *
 * A sample whose PC lies in the runtime (hooks, their C side, and under
 * --patch a trampoline's own instructions) is the hooks' cost, not the
 * program's time: it is counted apart in the root.  A patched function's
 * displaced first instructions, which its trampoline runs after the entry
 * hook, are the function's own: their samples go to its path, as perf
 * gives them to the function.  So do those on its entry's jump, not yet
 * run: they waited for the call that landed there, which perf gives to the
 * function called, about as often as in a run without the patch (on the
 * Lua benchmark, a quarter to a third of lua_settop's and lua_pushvalue's
 * samples in the plain build); the jump's own time shows at the
 * trampoline's first instruction.
 * Calls count as they begin, so a call still running at the end is
 * already counted: in the call memo of the thread's file (sections.h)
 * while its path holds its entry there, else in the path's node
 * (count_call()).
 *
 * A sample whose PC lies in an object without hooks (libc's realloc,
 * memcpy, strcmp) is that object's function's time: it goes to a child of
 * the path named by where that function begins, found by the sampler in
 * the object's call frame information, so the reports name it as they
 * name a library call (and as perf does), and the function that called
 * or jumped there keeps only its own time.
 *
 * Between a return and the next hook the shadow stack still holds the
 * callee that returned, and a sample in the next callee's first
 * instructions (before its call of the hook, which in a short function
 * is half its time) would go to it: a frame whose return slot holds
 * another address than its own has returned too, and a sample in those
 * instructions goes to the function they begin (before_hook()), as perf
 * gives it.
 */
#include "runtime.h"
#include "aggregate_count.h"

extern char callscope_return_trampoline[] HIDDEN;
/* where a dlopen returns to (libcall/), in every mode */
extern char callscope_libcall_load_return[] HIDDEN;
/* the hooks a -pg function calls first, as the program's GOT holds them */
extern char mcount[], __fentry__[];

/* Takes up a stop or start: count mode notes nothing else. */
static inline void sampled_check_capture(struct thread_state *t)
{
	uint32_t epoch = __atomic_load_n(&capture_state.epoch, __ATOMIC_ACQUIRE);

	if (LIKELY(t->epoch == epoch))
		return;
	t->epoch = epoch;
	t->reset_epoch = __atomic_load_n(&capture_state.reset_epoch, __ATOMIC_ACQUIRE);
	t->capturing = __atomic_load_n(&capture_state.on, __ATOMIC_ACQUIRE);
}

/* Whether the open frame F has returned, seen at SP (a sample's, or an entry's): the stack
 * pointer has left its return slot, or a later call from the same place
 * has put another return address in it than its own or the runtime's (a
 * dlopen's slot leads to the runtime while the constructors it runs make
 * calls).  The slot is read only inside the thread's stack [LO, HI). */
static int frame_gone(const struct shadow_frame *f, uintptr_t sp, uintptr_t lo, uintptr_t hi)
{
	if (f->sp < sp)
		return 1;
	if (f->sp < lo || f->sp + 8 > hi)
		return 0;
	uintptr_t now = *(const uintptr_t *)f->sp;
	return now != f->ret && now != (uintptr_t)callscope_return_trampoline &&
	       now != (uintptr_t)callscope_libcall_load_return;
}

/* How far above an entry's stack pointer the return slots of the open
 * frames are read: beyond it a frame may lie on another stack (a
 * coroutine's) that need not be there any more. */
#define SLOT_REACH (64u << 10)

/*
 * Open frames whose return slot holds another address by now have
 * returned, though the stack pointer of an entry is still below them: code
 * built without -pg moves its stack pointer between calls (a push after
 * an early call, a frame set up after a first call), so a sibling may
 * begin below the slot of the one that returned; and a handler that exit()
 * runs begins below main's.  A frame known only by its hook's call
 * (-finstrument-functions, no slot) is left to its exit hook.
 */
static inline void drop_returned_frames(struct thread_state *t, uintptr_t sp)
{
	uint32_t d = t->depth;

	while (d && t->stack[d - 1].ret && frame_gone(&t->stack[d - 1], sp, sp, sp + SLOT_REACH))
		d--;
	if (d != t->depth) {
		t->depth = d;
		t->cur_node = d ? t->stack[d - 1].node : 0;
	}
}

/* Open frames at or below SP are gone, but for those a -finstrument-functions
 * entry at SITE shows it was inlined into, and the frame whose return slot
 * at SP a TAIL_CALL reuses; the path is the innermost left.  Returns
 * nonzero, the frame at SP kept, when the entry of ADDR there is the hook
 * of a copy inlined into that frame's function (hook_sites.c): no call. */
static int drop_dead_frames(struct thread_state *t, uint64_t addr, uintptr_t sp, uintptr_t site,
			    uintptr_t hook_pc, int tail_call)
{
	uint32_t d = t->depth;

	while (d && t->stack[d - 1].sp < sp)
		d--;
	t->depth = d;
	if (!site && d && t->stack[d - 1].sp == sp && hook_site_inlined(t, addr, t->stack[d - 1].addr)) {
		t->cur_node = t->stack[d - 1].node;
		return 1;
	}
	if (site)
		d = inlined_depth(t, sp, site, hook_pc);
	else if (!tail_call)
		while (d && t->stack[d - 1].sp == sp)
			d--;
	t->depth = d;
	t->cur_node = d ? t->stack[d - 1].node : 0;
	return 0;
}

void sampled_count_enter(struct thread_state *t, uint64_t addr, uintptr_t sp,
			 uintptr_t *ret_slot, uintptr_t site, uintptr_t hook_pc)
{
	if (t->guard)
		return;	/* a signal handler's code inside a hook: not seen */
	guard_take(t, 1);
	sampled_check_capture(t);
	/* a slot that leads to the trampoline was redirected for a frame
	 * still open: this function was reached by a jump from it (a library
	 * function ending in `jmp *%rsi`, as ostream's operator<< does for
	 * std::endl), and returns with it through the trampoline, which
	 * closes both (trace.c's close_tail_callees) */
	int tail_call = ret_slot && *ret_slot == (uintptr_t)callscope_return_trampoline;
	if (UNLIKELY(t->depth && t->stack[t->depth - 1].sp <= sp)) {
		if (drop_dead_frames(t, addr, sp, site, hook_pc, tail_call)) {
			guard_restore(t, 0);
			return;
		}
	} else
		drop_returned_frames(t, sp);
	if (UNLIKELY(t->depth == t->capacity)) {
		/* too deep to follow: the exit hook must skip its exit too */
		if (!ret_slot)
			t->overflow++;
		guard_restore(t, 0);
		return;
	}
	/* the path of the frame below, not cur_node, which a signal taken
	 * inside sampled_count_exit_named() finds not yet updated: a path
	 * then always lies at one depth, as the call memo needs it */
	uint32_t parent = t->depth ? t->stack[t->depth - 1].node : 0;
	struct shadow_frame *f = &t->stack[t->depth++];
	f->addr = addr;
	f->sp = sp;
	/* nonzero marks a frame that learns of its return by the stack
	 * pointer (the sampler looks) */
	f->ret = ret_slot && !tail_call ? *ret_slot : 0;
	f->site = site;
	f->hook_pc = hook_pc;
	/* -finstrument-functions' hooks name no return slot that a library
	 * call's (libcall/) could be compared with: that call's return is
	 * seen through the trampoline, as in a trace */
	if (ret_slot && returns_redirected() && f->ret &&
	    f->ret != (uintptr_t)callscope_return_trampoline)
		*ret_slot = (uintptr_t)callscope_return_trampoline;
	f->parent_node = parent;
	f->node = count_child(t, parent, addr);
	t->cur_node = f->node;
	count_call(t, parent, addr, f->node);
	guard_restore(t, 0);
}

/*
 * The usual entry of a -pg or -mfentry function, whose return address
 * lies at RET_SLOT, done as sampled_count_enter() does it but in a short
 * run of straight code: the thread records with its capture state up to
 * date, the shadow stack has room, and the call memo's entry holds the
 * call path.  Returns nonzero, having changed nothing,
 * when sampled_count_enter() must do the entry instead.
 *
 * Short and straight, because the hooks' work disturbs the program's own
 * time beside them: a hook that runs through two C functions, each
 * saving registers, with branches of its own (sampled_count_enter() by
 * way of callscope_hook_enter()) leaves the program's short functions
 * with up to a third more timer samples than in a run without hooks (the
 * shares of bench/hooks.sh, and bench/RESULTS.md).  And small in memory:
 * the call is counted in the memo entry, one line besides the shadow
 * stack, not in the path's 128-byte node found through the cache, whose
 * two dependent loads let the next instructions of the program (a callee's cache
 * misses) run under the hook and its samples.
 */
uintptr_t callscope_hook_enter_sampled(uintptr_t *ret_slot, uint64_t addr)
{
	struct thread_state *t = trace_current();
	uintptr_t sp = (uintptr_t)ret_slot;

	if (UNLIKELY(t->guard))
		return 1;
	/* set before the status is read: read together, as one wider load,
	 * the two would wait for the store of the guard that ended the
	 * previous hook */
	guard_take(t, 1);
	if (UNLIKELY(t->status != THREAD_RECORDING ||
		     t->epoch != __atomic_load_n(&capture_state.epoch, __ATOMIC_RELAXED)))
		return guard_restore_returning(t, 0, 1);
	/* the frames that returned, as sampled_count_enter() finds them */
	uint32_t d = t->depth;
	if (d && t->stack[d - 1].sp <= sp) {
		while (d && t->stack[d - 1].sp < sp)
			d--;
		/* the frame at this very slot: a sibling call's, or one an
		 * inlined copy's hook must leave open (hook_sites.c) */
		if (d && t->stack[d - 1].sp == sp && !hook_sites_apart(t, addr, t->stack[d - 1].addr))
			return guard_restore_returning(t, 0, 1);
		while (d && t->stack[d - 1].sp <= sp)
			d--;
	} else
		while (d && t->stack[d - 1].ret && frame_gone(&t->stack[d - 1], sp, sp, sp + SLOT_REACH))
			d--;
	uint32_t parent = d ? t->stack[d - 1].node : 0;
	/* the call memo's entry, when it holds this path
	 * (sampled_count_enter() takes it otherwise) */
	struct thread_call_memo *m = call_memo_entry(t, parent, addr);
	if (UNLIKELY(d == t->capacity || m->addr != addr || m->parent != parent))
		return guard_restore_returning(t, 0, 1);
	uint32_t node = m->node;
	struct shadow_frame *f = &t->stack[d];
	f->addr = addr;
	f->sp = sp;
	f->ret = *ret_slot;
	f->site = 0;
	f->hook_pc = 0;
	f->parent_node = parent;
	f->node = node;
	t->depth = d + 1;
	t->cur_node = node;
	m->calls += (uint64_t)t->capturing;
	return guard_restore_returning(t, 0, 0);
}

void sampled_count_exit_named(struct thread_state *t, uint64_t addr)
{
	if (t->guard)
		return;
	if (UNLIKELY(t->overflow)) {
		t->overflow--;
		return;
	}
	uint32_t i = t->depth;
	while (i && t->stack[i - 1].addr != addr)
		i--;
	if (LIKELY(i)) {
		t->depth = i - 1;
		t->cur_node = t->stack[i - 1].parent_node;
	}
}

/* N when the N bytes at P are those of WANT, else 0.  Each byte is read
 * only once those before it matched: an instruction's bytes, or those of
 * the one after a whole instruction, are there to read. */
static size_t starts_with(const uint8_t *p, const uint8_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != want[i])
			return 0;
	return n;
}

/* The pointer a `call *disp32(%rip)` or `jmp *disp32(%rip)` at INSN
 * (opcode and ModRM at INSN[0..1]) loads: the CPU reads it, so it is there. */
static uintptr_t rip_slot(const uint8_t *insn)
{
	int32_t disp;

	__builtin_memcpy(&disp, insn + 2, 4);
	return *(const uintptr_t *)(insn + 6 + disp);
}

/*
 * When PC lies in a -pg function's first instructions, before its call of
 * the hook — `[endbr64] [push %rbp; mov %rsp,%rbp] call hook`, the call
 * through the GOT or a PLT entry — returns where that call returns to,
 * the address the hook names the function by; else 0.
 */
static uintptr_t before_hook(uintptr_t pc)
{
	static const uint8_t endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const uint8_t push_mov[] = { 0x55, 0x48, 0x89, 0xe5 };
	static const uint8_t call_got[] = { 0xff, 0x15 }, jmp_got[] = { 0xff, 0x25 };
	static const uint8_t call_rel[] = { 0xe8 }, bnd[] = { 0xf2 };
	const uint8_t *p = (const uint8_t *)pc;
	uintptr_t target, after;

	p += starts_with(p, endbr, 4);
	if (starts_with(p, push_mov, 4))
		p += 4;
	else if (starts_with(p, push_mov + 1, 3))
		p += 3;
	if (starts_with(p, call_got, 2)) {
		after = (uintptr_t)p + 6;
		target = rip_slot(p);
	} else if (starts_with(p, call_rel, 1)) {
		int32_t rel;
		__builtin_memcpy(&rel, p + 1, 4);
		after = (uintptr_t)p + 5;
		/* a PLT entry: [endbr64] [bnd] jmp *GOT */
		const uint8_t *plt = (const uint8_t *)(after + rel);
		if ((uintptr_t)plt == (uintptr_t)mcount || (uintptr_t)plt == (uintptr_t)__fentry__)
			return after;
		plt += starts_with(plt, endbr, 4);
		plt += starts_with(plt, bnd, 1);
		if (!starts_with(plt, jmp_got, 2))
			return 0;
		target = rip_slot(plt);
	} else {
		return 0;
	}
	return target == (uintptr_t)mcount || target == (uintptr_t)__fentry__ ? after : 0;
}

void sampled_count_sample(struct thread_state *t, uintptr_t pc, uintptr_t sp, uintptr_t stack_lo,
			  uintptr_t stack_hi, int in_runtime, uintptr_t unhooked, uintptr_t landed,
			  uint64_t weight)
{
	sampled_check_capture(t);
	if (!t->capturing)
		return;
	if (in_runtime) {
		t->nodes[0].hook_samples += weight;
		return;
	}
	/* frames that returned since the last hook */
	uint32_t d = t->depth;
	while (d && t->stack[d - 1].ret && frame_gone(&t->stack[d - 1], sp, stack_lo, stack_hi))
		d--;
	uint32_t node = d == t->depth ? t->cur_node : d ? t->stack[d - 1].node : 0;
	/* the thread is in no hook, so the node table is free */
	if (unhooked) {
		/* code without hooks: its function's own time, as a callee of
		 * the path that reached it -- unless that path ends in the
		 * very function, entered as a library call */
		if (!d || t->stack[d - 1].addr != unhooked)
			node = count_child(t, node, unhooked);
	} else if (landed) {
		/* a call that has just reached a PLT stub, on its way to a
		 * library call's hooks: its return address lies at SP, so a
		 * frame open there returned (the last call from the same
		 * place, whose slot holds the same address again, would
		 * otherwise take the sample).  The stub is its own function,
		 * as perf names it, under the caller. */
		while (d && t->stack[d - 1].ret && t->stack[d - 1].sp <= sp)
			d--;
		node = count_child(t, d ? t->stack[d - 1].node : 0, landed);
	} else if (runtime_config.contract.hooks & (CONTRACT_HOOKS_MCOUNT | CONTRACT_HOOKS_FENTRY)) {
		/* a function caught before its hook: the hook will count its
		 * call on this node */
		uintptr_t self = before_hook(pc);
		if (self)
			node = count_child(t, node, self);
	} else {
		/* a patched function caught on its entry's jump, which the
		 * call just reached: its return address lies at SP, so a
		 * frame open at or below it returned, though its slot may
		 * hold the same address (a call from the same place) */
		uintptr_t self = patch_entry_function(pc);
		if (self) {
			while (d && t->stack[d - 1].sp <= sp)
				d--;
			node = count_child(t, d ? t->stack[d - 1].node : 0, self);
		}
	}
	t->nodes[node].samples += weight;
}
