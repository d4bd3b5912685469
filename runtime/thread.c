/*
 * A recording thread's life, from its first hook to its end: its shadow
 * stack and id table, its staging file (thread_buffer.c), its alternate
 * signal stack for fatal signals (signals.c), and how it ends — when it
 * exits, when the process exits under it, or when it is the child of a
 * fork, which must leave its parent's file for one of its own.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "stream.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#define STACK_CAPACITY (1u << 17)	/* open calls per thread */
#define FUNC_SLOTS (1u << 15)		/* id table size; ids up to 3/4 of it */
#define ALTSTACK_BYTES (64u << 10)

/*
 * A thread's alternate signal stack, shadow stack, id table and
 * tail-call sites share one mapping, in that order, made as it starts
 * and unmapped as it ends: in a threaded process each munmap() of pages
 * a thread touched interrupts the other CPUs that run the process to
 * flush their TLBs, which paid three times was a sixth of what a short
 * thread cost.  The signal stack grows down from the shadow stack's
 * start, away from the rest.
 */
#define AREA_ROUND(n) (((n) + 4095u) & ~(size_t)4095u)
#define STACK_BYTES AREA_ROUND(STACK_CAPACITY * sizeof(struct shadow_frame))
#define SLOTS_BYTES AREA_ROUND(FUNC_SLOTS * sizeof(struct func_slot))
#define SITES_BYTES AREA_ROUND(HOOK_SITES * sizeof(struct hook_site))
#define AREAS_BYTES (ALTSTACK_BYTES + STACK_BYTES + SLOTS_BYTES + SITES_BYTES)

/* Ends the thread's recording when it exits (pthread's destructor). */
static pthread_key_t thread_key;

static int thread_state_alloc(struct thread_state *t)
{
	if (!t->stack) {
		uint8_t *p = mmap(NULL, AREAS_BYTES, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		t->stack = (struct shadow_frame *)(p + ALTSTACK_BYTES);
		t->slots = (struct func_slot *)(p + ALTSTACK_BYTES + STACK_BYTES);
		/* none: every tail call is taken for one (hook_sites.c) */
		t->sites = (struct hook_site *)(p + ALTSTACK_BYTES + STACK_BYTES + SLOTS_BYTES);
		t->capacity = STACK_CAPACITY;
		t->depth = 0;
		unwind_threads_add(t);
	}
	t->slot_mask = FUNC_SLOTS - 1;
	t->id_limit = FUNC_SLOTS / 4 * 3;
	t->next_id = 1;
	t->gen = 1;		/* fresh slots hold generation 0: empty */
	return 0;
}

/* After altstack_close(): a signal stack it could not take down (the
 * thread ends on it) stays mapped, the rest goes. */
static void thread_state_free(struct thread_state *t)
{
	if (t->stack) {
		unwind_threads_remove(t);
		if (t->altstack)
			munmap(t->stack, AREAS_BYTES - ALTSTACK_BYTES);
		else
			munmap((uint8_t *)t->stack - ALTSTACK_BYTES, AREAS_BYTES);
	}
	t->stack = NULL;
	t->slots = NULL;
	t->sites = NULL;
	t->depth = 0;
	t->capacity = 0;
}

/* Each recording thread gets an alternate signal stack, so that a stack
 * overflow is recorded too (signals.c); unless it has its own. */
static void altstack_open(struct thread_state *t)
{
	stack_t ss, old;

	if (sigaltstack(NULL, &old) == 0 && !(old.ss_flags & SS_DISABLE))
		return;
	ss.ss_sp = (uint8_t *)t->stack - ALTSTACK_BYTES;
	ss.ss_size = ALTSTACK_BYTES;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) == 0)
		t->altstack = ss.ss_sp;
}

static void altstack_close(struct thread_state *t)
{
	stack_t ss;

	if (!t->altstack)
		return;
	ss.ss_sp = NULL;
	ss.ss_size = 0;
	ss.ss_flags = SS_DISABLE;
	if (sigaltstack(&ss, NULL) == 0)
		t->altstack = NULL;
}

static int start_recording(void *arg)
{
	struct thread_state *t = arg;
	int saved = errno;
	guard_take(t, 1);
	t->status = THREAD_OFF;
	if (thread_state_alloc(t) == 0 && thread_buffer_open(t, 0) == 0) {
		t->status = THREAD_RECORDING;
		pthread_setspecific(thread_key, t);
		altstack_open(t);
	}
	guard_restore(t, 0);
	errno = saved;
	return t->status == THREAD_RECORDING;
}

/* Runs inside the thread's first hook, where the vector registers may
 * hold the function's arguments (its ymm or zmm ones too), and opens the
 * thread's files through libc, whose string functions use them and leave
 * with vzeroupper: so the whole vector state is kept around the work. */
int thread_start(struct thread_state *t)
{
	if (t->status != THREAD_UNSET || !runtime_config.active || t->guard)
		return 0;
	return callscope_call_keeping_vectors(start_recording, t);
}

/* Marks the end of the thread's stream: calls still open are closed here. */
static void emit_end(struct thread_state *t)
{
	if (!t->hdr || !t->capturing || t->nodes)
		return;
	if (!t->ring_bytes && (size_t)(t->end - t->cur) < STREAM_RECORD_MAX &&
	    thread_buffer_grow(t) != 0) {
		t->hdr->lost_events++;
		return;
	}
	uint64_t now = thread_clock(t);
	uint64_t delta = now > t->last_time ? now - t->last_time : 0;
	t->last_time = now;
	t->cur = stream_put_varint(t->cur, ((uint64_t)STREAM_THREAD_END << 2) | STREAM_SPECIAL);
	t->cur = stream_put_varint(t->cur, delta);
	thread_commit(t);
}

static void thread_finished(void *arg)
{
	struct thread_state *t = arg;

	altstack_close(t);
	/* a sample arriving now must not interleave with the end record */
	guard_take(t, 1);
	emit_end(t);
	hook_samples_add_library_calls(t);
	t->status = THREAD_OFF;
	/* the guard stays held from here on: a signal it held meanwhile is
	 * sent now, as no later release will send it */
	signals_send_held(t, 0);
	guard_take(t, 1);
	thread_buffer_close(t);
	thread_state_free(t);
}

int thread_lifecycle_install(void)
{
	return pthread_key_create(&thread_key, thread_finished);
}

/*
 * The calls the exiting thread is inside of end here, by its own clock:
 * that clock leaves out the runtime's pauses (growing the buffer), the
 * process end's time is the plain clock's, and closing them there would
 * charge them every pause of the run.
 */
void thread_process_exiting(struct thread_state *t)
{
	if (t->status == THREAD_RECORDING && !t->guard) {
		guard_take(t, 1);
		emit_end(t);
		guard_restore(t, 0);
	}
}

/*
 * The child of fork() has a private copy of the calling thread's shadow
 * stack but shares its staging file with the parent: it gets a file of
 * its own before it records anything, and the calls it inherited are
 * written at the head of that file so their exits make sense.
 */
void thread_after_fork(struct thread_state *t)
{
	/* a child starts with no signal pending, held ones included */
	signals_forget_held(t);
	t->library_calls = 0;	/* the parent's */
	if (t->status != THREAD_RECORDING)
		return;
	guard_take(t, 1);
	thread_buffer_close(t);
	t->status = THREAD_OFF;
	if (thread_buffer_open(t, THREAD_FORKED) == 0)
		t->status = THREAD_RECORDING;
	guard_restore(t, 0);
}

/*
 * The child of fork() that cannot record (its process file could not be
 * made: no descriptor left, no space): it lets go of the parent's files,
 * whose mappings would write into the parent's data and whose ring of
 * switch records a child does not inherit, but keeps the shadow stack,
 * as the functions it is inside of still return through the trampoline.
 */
void thread_after_fork_unrecorded(struct thread_state *t)
{
	signals_forget_held(t);
	if (t->status != THREAD_RECORDING) {
		t->status = THREAD_OFF;
		return;
	}
	guard_take(t, 1);
	thread_buffer_close(t);
	t->status = THREAD_OFF;
	guard_restore(t, 0);
}
