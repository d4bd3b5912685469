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
 * A sample whose PC lies in the runtime (hooks, their C side) is the
 * hooks' cost, not the program's time: it is counted apart in the root.
 * Calls count as they begin, so a call still running at the end is
 * already counted.
 */
#include "runtime.h"
#include "aggregate_count.h"

extern char callscope_return_trampoline[] HIDDEN;

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

/* Open frames at or below SP are gone, but for those a -finstrument-functions
 * entry at SITE shows it was inlined into; the path is the innermost left. */
static void drop_dead_frames(struct thread_state *t, uintptr_t sp, uintptr_t site,
			     uintptr_t hook_pc)
{
	uint32_t d = t->depth;

	while (d && t->stack[d - 1].sp < sp)
		d--;
	t->depth = d;
	if (site)
		d = inlined_depth(t, sp, site, hook_pc);
	else
		while (d && t->stack[d - 1].sp == sp)
			d--;
	t->depth = d;
	t->cur_node = d ? t->stack[d - 1].node : 0;
}

void sampled_count_enter(struct thread_state *t, uint64_t addr, uintptr_t sp,
			 uintptr_t *ret_slot, uintptr_t site, uintptr_t hook_pc)
{
	if (t->guard)
		return;	/* a signal handler's code inside a hook: not seen */
	t->guard = 1;
	sampled_check_capture(t);
	if (UNLIKELY(t->depth && t->stack[t->depth - 1].sp <= sp))
		drop_dead_frames(t, sp, site, hook_pc);
	if (UNLIKELY(t->depth == t->capacity)) {
		/* too deep to follow: the exit hook must skip its exit too */
		if (!ret_slot)
			t->overflow++;
		t->guard = 0;
		return;
	}
	struct shadow_frame *f = &t->stack[t->depth++];
	uint32_t parent = t->cur_node;
	f->addr = addr;
	f->sp = sp;
	/* nonzero marks a frame that learns of its return by the stack
	 * pointer (the sampler looks) */
	f->ret = ret_slot ? *ret_slot : 0;
	f->site = site;
	f->hook_pc = hook_pc;
	/* -finstrument-functions' hooks name no return slot that a library
	 * call's (libcall/) could be compared with: that call's return is
	 * seen through the trampoline, as in a trace */
	if (ret_slot && (runtime_config.contract.hooks & CONTRACT_HOOKS_CYG) && f->ret &&
	    f->ret != (uintptr_t)callscope_return_trampoline)
		*ret_slot = (uintptr_t)callscope_return_trampoline;
	f->parent_node = parent;
	f->node = count_child(t, parent, addr);
	t->cur_node = f->node;
	t->nodes[f->node].calls += (uint64_t)t->capturing;
	t->guard = 0;
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

void sampled_count_sample(struct thread_state *t, uintptr_t pc, uintptr_t sp, int in_runtime,
			  uint64_t weight)
{
	sampled_check_capture(t);
	if (!t->capturing)
		return;
	if (in_runtime) {
		t->nodes[0].hook_samples += weight;
		return;
	}
	(void)pc;
	/* frames the stack pointer has left returned since the last hook */
	uint32_t d = t->depth;
	while (d && t->stack[d - 1].ret && t->stack[d - 1].sp < sp)
		d--;
	uint32_t node = d == t->depth ? t->cur_node : d ? t->stack[d - 1].node : 0;
	t->nodes[node].samples += weight;
}
