/*
 * Internals of libcallscope.so shared between its files.  Nothing here is
 * exported: the build hides every symbol not in runtime/exports.map.
 */
#ifndef CALLSCOPE_RUNTIME_H
#define CALLSCOPE_RUNTIME_H

#include <stdint.h>
#include <sys/types.h>

#include "contract.h"
#include "sections.h"

#define HIDDEN __attribute__((visibility("hidden")))
/* Exported symbols must also be listed in runtime/exports.map. */
#define EXPORT __attribute__((visibility("default")))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* One open call on a thread's shadow stack. */
struct shadow_frame {
	uint64_t addr;		/* address the hook named the function by */
	uintptr_t sp;		/* where its frame was: smaller is deeper */
	uintptr_t ret;		/* real return address, or 0 if not redirected */
};

/* Slot of a thread's address -> small id table (open addressing). */
struct func_slot {
	uint64_t addr;		/* 0 = empty */
	uint32_t id;
	uint32_t pad;
};

enum thread_status {
	THREAD_UNSET = 0,	/* first hook of this thread not seen yet */
	THREAD_RECORDING = 1,
	THREAD_OFF = 2,		/* runtime inactive, or the thread has ended */
};

struct thread_state {
	int guard;		/* nonzero while a hook runs: reentry is dropped */
	int status;		/* enum thread_status */
	int truncated;		/* buffer could not grow: events are counted lost */
	uint32_t tid;

	/* the mapped write window of the staging file */
	uint8_t *cur;
	uint8_t *end;
	uint8_t *win_base;
	size_t win_len;
	uint64_t win_file_off;
	struct thread_file_header *hdr;
	int fd;

	uint64_t last_time;
	/* clock units spent growing the buffer, hidden from every later
	 * timestamp so the profiler's own pauses are not charged to the
	 * function that happened to be running */
	uint64_t paused;

	struct shadow_frame *stack;
	uint32_t depth;
	uint32_t capacity;
	uint32_t overflow;	/* calls past capacity, awaiting their exits */

	struct func_slot *slots;
	uint32_t slot_mask;
	uint32_t next_id;
	uint32_t id_limit;
};

/* Process-wide settings, fixed once the constructor has run. */
struct runtime_config {
	int active;		/* 0: the runtime records nothing */
	enum contract_clock clock;
	uint32_t chunk_bytes;
	uint32_t image;		/* this process image's number among same-pid images */
	pid_t pid;
	char dir[CONTRACT_PATH_MAX];
};

extern struct runtime_config runtime_config HIDDEN;

static inline uint64_t runtime_now(void);

/* hooks.c: the C side of the entry points (arch/x86_64/hooks.S) */
HIDDEN int callscope_hook_enter(uintptr_t *ret_slot, uint64_t self);
HIDDEN void callscope_hook_enter_slow(uintptr_t *ret_slot, uint64_t self);
HIDDEN uintptr_t callscope_hook_return(uintptr_t slot);
EXPORT void __cyg_profile_func_enter(void *fn, void *site);
EXPORT void __cyg_profile_func_exit(void *fn, void *site);
EXPORT void __monstartup(unsigned long low, unsigned long high);
EXPORT void _mcleanup(void);

/* trace.c: the hot path, parameterized by thread state for calibration */
HIDDEN void trace_enter(struct thread_state *t, uint64_t addr, uintptr_t sp,
			uintptr_t *ret_slot);
HIDDEN uintptr_t trace_return(struct thread_state *t, uintptr_t slot);
HIDDEN void trace_exit_named(struct thread_state *t, uint64_t addr);
HIDDEN struct thread_state *trace_current(void);

/* thread_buffer.c: staging file of one thread (slow path only) */
HIDDEN int thread_buffer_open(struct thread_state *t, uint32_t flags);
HIDDEN int thread_buffer_grow(struct thread_state *t);
HIDDEN void thread_buffer_close(struct thread_state *t);
HIDDEN int thread_state_alloc(struct thread_state *t);
HIDDEN void thread_state_free(struct thread_state *t);
HIDDEN void thread_emit_open_frames(struct thread_state *t);
HIDDEN void thread_emit_end(struct thread_state *t);

/* process.c: process and object sections */
HIDDEN int process_write_start(pid_t parent, uint32_t overhead_inner_x256,
			       uint32_t overhead_outer_x256);
HIDDEN void process_write_end(uint32_t reason);

/* init.c */
HIDDEN void runtime_thread_started(struct thread_state *t);

/* calibrate.c */
HIDDEN void calibrate_overhead(uint32_t *inner_x256, uint32_t *outer_x256);

/* util.c: async-signal-safe helpers */
HIDDEN char *rt_append(char *p, char *end, const char *s);
HIDDEN char *rt_append_u64(char *p, char *end, uint64_t v);
HIDDEN void rt_warn(const char *msg, const char *detail);

#include "clock.h"

static inline uint64_t runtime_now(void)
{
	return clock_now(runtime_config.clock);
}

/* The thread's event clock: real time less the profiler's pauses. */
static inline uint64_t thread_now(const struct thread_state *t)
{
	return runtime_now() - t->paused;
}

#endif
