/*
 * Internals of libcallscope.so shared between its files.  Nothing here is
 * exported: the build hides every symbol not in runtime/exports.map.
 */
#ifndef CALLSCOPE_RUNTIME_H
#define CALLSCOPE_RUNTIME_H

#include <signal.h>
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
	/* -finstrument-functions: the call site the entry hook was given,
	 * and where the hook returned to (0 for other frames whose return is
	 * not redirected).  A function inlined into another calls its hooks
	 * from that one's frame: same place on the stack, same call site, but
	 * its own hook call (see trace.c).  A redirected frame leaves them as
	 * they were, so -pg's hot path writes no more: they are read only at
	 * a place such a frame has, a stack pointer before a call, 16-aligned,
	 * which a return slot (8 off) never is. */
	uintptr_t site;
	uintptr_t hook_pc;
	/* aggregate mode only: the call path node, its parent, its
	 * function's statistics record, the start, the thread's hooks_q
	 * then, and the counters then */
	uint32_t node;
	uint32_t parent_node;
	uint32_t func_record;
	int inherited;		/* opened before this process's stream began,
				 * or before capture resumed: time, no call */
	int counted;		/* capture was on: the node gets its numbers */
	uint64_t start;
	uint64_t hooks_at;
	uint64_t counter_start[CONTRACT_COUNTERS_MAX];
};

/* Slot of a thread's address -> small id table (open addressing). */
struct func_slot {
	uint64_t addr;
	/* the ENTRY record's first varint, of the id: its bytes, and their
	 * count in the top byte (see entry_code() in trace.c) */
	uint32_t entry;
	uint32_t gen;		/* valid only when equal to the thread's gen */
};

enum thread_status {
	THREAD_UNSET = 0,	/* first hook of this thread not seen yet */
	THREAD_RECORDING = 1,
	THREAD_OFF = 2,		/* runtime inactive, or the thread has ended */
};

struct perf_event_mmap_page;

/* A direct-mapped cache of (parent node, address) -> child node. */
struct cct_cache_slot {
	uint64_t addr;
	uint32_t parent;
	uint32_t node;
};

/* Slot of a thread's address -> function statistics record table. */
struct cct_func_slot {
	uint64_t addr;
	uint32_t record;	/* 0: empty */
	uint32_t unused;
};

/*
 * What t->guard holds while the hooks of a traced call run, so that a
 * sample taken there tells which side of the hook's clock read it fell
 * on (hook_samples.c): an entry's work before its clock read is the
 * caller's time, after it the callee's; an exit's the other way round.
 * Any other nonzero value is other work of the runtime.
 */
enum {
	GUARD_ENTRY = 2,
	GUARD_ENTRY_CLOCKED,
	GUARD_EXIT,
	GUARD_EXIT_CLOCKED,
};

/* Signals that may arrive while one thread's guard is held and be sent
 * again when it is freed; more run unrecorded, at once. */
#define SIGNALS_HELD_MAX 4

/* Which file a descriptor the runtime opened is.  A program may close
 * descriptors it did not open (a daemon closing all but 0-2) and get
 * their numbers again from its next open(): the runtime then must
 * neither write to nor close that number, which is now the program's. */
struct rt_file_id {
	uint64_t dev, ino;
};

/* A hook's call site and where the function holding it begins (0: not
 * known), in a thread's table of them (hook_sites.c). */
struct hook_site {
	uintptr_t site, start;
};

#define HOOK_SITES 1024u	/* a power of two */

static inline size_t hook_site_index(uintptr_t site)
{
	return (site >> 2 ^ site >> 13) & (HOOK_SITES - 1);
}

struct thread_state {
	int guard;		/* nonzero while a hook runs: reentry is dropped;
				 * GUARD_* in the hooks of a call */
	uint32_t signals_held;	/* how many of held_signal[] wait to be sent:
				 * see guard_restore() and sigaction.c */
	uint32_t held_first;	/* held_signal[held_first % SIGNALS_HELD_MAX] is
				 * sent next; held_next is the next slot to
				 * claim; both count on and wrap */
	uint32_t held_next;
	int status;		/* enum thread_status */
	int truncated;		/* buffer could not grow: events are counted lost */
	int capturing;		/* events are written (see capture_* below) */
	int unwinding;		/* an exception is in flight and return addresses
				 * were given back for it (exceptions.c) */
	uint32_t epoch;		/* the capture epoch this thread last saw */
	uint32_t reset_epoch;	/* the reset epoch likewise */
	uint32_t tid;

	/* the mapped write window of the staging file */
	uint8_t *cur;
	uint8_t *end;
	uint8_t *win_base;
	size_t win_len;
	uint64_t win_file_off;
	struct thread_file_header *hdr;
	int fd;
	struct rt_file_id fd_id;	/* the file fd was opened on */
	/* flight recorder: the ring is mapped twice in a row, so a record
	 * that runs past ring_end lands at the ring's start; cur wraps back
	 * by ring_bytes once past ring_end.  Without a ring, ring_end is the
	 * highest address and never reached. */
	uint8_t *ring_end;
	uint64_t ring_bytes;
	/* the ring's first bytes put in the page cache and mapped in; the
	 * rest is, a stretch ahead of the writer, in its first lap */
	uint64_t ring_ready;
	uint64_t next_sync;	/* stream offset at which the next SYNC is due */

	uint64_t last_time;
	/* clock units spent growing the buffer, hidden from every later
	 * timestamp so the profiler's own pauses are not charged to the
	 * function that happened to be running */
	uint64_t paused;

	struct shadow_frame *stack;
	struct hook_site *sites;	/* HOOK_SITES of them (hook_sites.c) */
	uint32_t depth;
	uint32_t capacity;
	uint32_t overflow;	/* calls past capacity, awaiting their exits */

	struct func_slot *slots;
	uint32_t slot_mask;
	uint32_t next_id;
	uint32_t id_limit;
	uint32_t gen;		/* bumped to forget every id at once (SYNC) */

	void *altstack;		/* for fatal signals on a stack overflow */

	/* aggregate mode (--mode=count): call-path nodes instead of events */
	struct cct_record *nodes;	/* NULL in the event modes */
	uint32_t node_cap;
	uint32_t node_used;
	uint32_t node_reserved;	/* nodes the file has space for */
	uint32_t cur_node;	/* the path the thread is in */
	struct cct_cache_slot *node_cache;
	/* --time-by=samples: the call memo (sections.h), mapped from the
	 * thread's file when call_memo_on, else entries that match no call
	 * (calls then go to the nodes directly) */
	struct thread_call_memo *call_memo;
	int call_memo_on;
	struct cct_func_slot *func_slots;	/* --call-stats only, else NULL */
	uint32_t func_slot_mask;
	uint32_t funcs_used;	/* records in func_slots */
	uint64_t hooks_q;	/* the hooks' cost of the calls begun while
				 * counting, clock units times 256 */

	/* record -e: counters read at every entry and exit */
	uint32_t ncounters;
	int counter_rdpmc;	/* every counter readable with rdpmc */
	int counter_fd[CONTRACT_COUNTERS_MAX];
	struct perf_event_mmap_page *counter_page[CONTRACT_COUNTERS_MAX];
	uint64_t counter_now[CONTRACT_COUNTERS_MAX];	/* read by this hook */
	uint64_t counter_last[CONTRACT_COUNTERS_MAX];	/* as the stream has them */

	/* the thread's context switches (cpu_wait.c): the ring's control
	 * page, its head (the thread's own wait_tail, or NULL before the
	 * thread's buffer opens: waits are not left out), how far it is read,
	 * the kernel's time of a preemption not yet followed by the switch
	 * back in (0: none), the event clock's reading (before pauses) at
	 * the last hook, and the waits left out so far, with the pauses'
	 * (pause_began to pause_ended, the last pause's, which the last
	 * reading is when clock_last equals pause_ended) */
	struct perf_event_mmap_page *wait_page;
	uint32_t wait_pages;	/* of records, after that page */
	const volatile uint64_t *wait_head;
	uint64_t wait_tail;
	uint64_t wait_out;
	uint64_t clock_last;
	uint64_t waited_ns;
	uint64_t pause_began, pause_ended;

	siginfo_t held_signal[SIGNALS_HELD_MAX];

	/* last, so that the fields every hook reads keep their cache lines */
	int library_entry;	/* the C side of a library call's entry runs
				 * (libcall/enter.c): its hook samples are that
				 * kind's (hook_samples.c) */
	uint64_t library_calls;	/* library calls entered, not yet added to
				 * hook_samples_add_library_calls() */
};

/*
 * -finstrument-functions calls the hooks of a function inlined into
 * another from that one's frame, so its SP is the same.  The open frames
 * at SP are one real call and the calls inlined into it when they share
 * its call SITE (the compiler hands every one of them the real function's
 * return address) and none was entered by the hook call at HOOK_PC: a
 * hook call that runs again before its exit means its frame was left (a
 * longjmp back to before it).  Returns how many open frames are live: the
 * frames above that are gone.
 */
static inline uint32_t inlined_depth(const struct thread_state *t, uintptr_t sp,
				     uintptr_t site, uintptr_t hook_pc)
{
	uint32_t i = t->depth;

	while (i && t->stack[i - 1].sp == sp && t->stack[i - 1].site == site &&
	       t->stack[i - 1].hook_pc != hook_pc)
		i--;
	if (i && t->stack[i - 1].sp == sp)
		return i - 1;
	return t->depth;
}

/*
 * A library call's frame (libcall/enter.c) is told from a compiler hook's
 * by its site, which no redirected frame's hot path writes: ~addr, an
 * address in the kernel's half that no call site has.  A compiler hook's
 * frame may find a library frame's mark left in its slot, but for another
 * address (functions with hooks and library functions lie in different
 * objects), so the mark never matches it.  For hook_samples.c, which
 * sorts the hooks' cost by the kind of call it was paid for.
 */
static inline void frame_mark_library(struct shadow_frame *f, uint64_t addr)
{
	f->site = ~(uintptr_t)addr;
}

static inline int frame_is_library(const struct shadow_frame *f)
{
	return f->site == ~(uintptr_t)f->addr;
}

/*
 * Process-wide settings, fixed once the constructor has run: the
 * launcher's contract as parsed (trigger addresses moved to where the
 * main program is loaded), and what the runtime found out itself.
 */
struct runtime_config {
	int active;		/* 0: the runtime records nothing */
	uint32_t counter_cost;	/* reading the counters at a call's entry and
				 * exit, clock units (calibrate.c) */
	/* the hooks' cost per call in clock units times 256 (calibrate.c),
	 * inside the callee's time and outside it, as every PROCESS section
	 * says; the aggregate mode subtracts it from each call as the
	 * analyzer does from a trace */
	uint32_t hook_inner_x256;
	uint32_t hook_outer_x256;
	/* the same for a library call's hooks (arch/x86_64/libcall.S), 0
	 * when library calls are not traced; the PROCESS section has no
	 * room for them, CALIBRATION says them */
	uint32_t library_inner_x256;
	uint32_t library_outer_x256;
	/* what a library call's hooks cost beyond a compiler hook's, each
	 * part held at 0 or more as the analyzer holds a library figure at
	 * the compiler hooks' (load/hook_cost.c): count mode's per-call
	 * statistics take it off library calls and the calls around them */
	uint32_t library_extra_inner_x256;
	uint32_t library_extra_outer_x256;
	uint32_t image;		/* this process image's number among same-pid images */
	/* --time-by=samples: the sampler's period in ns (sampler.c), which
	 * the root record keeps; 0 otherwise */
	uint64_t sample_period_ns;
	pid_t pid;
	struct contract contract;
};

/*
 * Capture on or off, for the whole process.  Triggers flip `on` and bump
 * `epoch`; every thread compares its own epoch on each hook and, when it
 * changed, writes a SYNC (capture resumed: the calls it is inside of) or
 * a STOP record.
 */
struct capture_state {
	uint32_t epoch;
	int on;
	int start_armed;
	uint32_t reset_epoch;	/* bumped by callscope_reset(), with epoch */
};

extern struct capture_state capture_state HIDDEN;

extern struct runtime_config runtime_config HIDDEN;

/* Whether the clock times the calls (a trace, flight or count mode by the
 * clock): then the hooks' cost is calibrated and a thread's waits for a
 * CPU are left out of its clock.  Not in a run that only samples, nor one
 * timed by samples. */
static inline int calls_timed_by_clock(const struct contract *c)
{
	return !c->sample_only && !c->time_by_samples;
}

static inline uint64_t runtime_now(void);

/* hooks.c: the C side of the entry points (arch/x86_64/hooks.S) */
HIDDEN void callscope_hook_enter(uintptr_t *ret_slot, uint64_t self);
HIDDEN uintptr_t callscope_hook_return(uintptr_t slot);
/* trace.c: their fast paths (see there), one pair for the event modes
 * and one for count mode without and with --call-stats, tried first when the process's settings allow
 * them (the clock is the TSC, calls are timed by it, and no trigger needs
 * checking).  The assembly calls the pair trace_fast_paths_choose() chose
 * once, in the constructor; NULL: none. */
HIDDEN uintptr_t callscope_hook_enter_fast(uintptr_t *ret_slot, uint64_t self);
HIDDEN uintptr_t callscope_hook_return_fast(uintptr_t slot);
HIDDEN uintptr_t callscope_hook_enter_count_fast(uintptr_t *ret_slot, uint64_t self);
HIDDEN uintptr_t callscope_hook_return_count_fast(uintptr_t slot);
HIDDEN uintptr_t callscope_hook_enter_count_stats_fast(uintptr_t *ret_slot, uint64_t self);
HIDDEN uintptr_t callscope_hook_return_count_stats_fast(uintptr_t slot);
extern uintptr_t (*callscope_hook_enter_fast_path)(uintptr_t *ret_slot, uint64_t self) HIDDEN;
extern uintptr_t (*callscope_hook_return_fast_path)(uintptr_t slot) HIDDEN;
HIDDEN void trace_fast_paths_choose(const struct contract *contract);
/* sampled_count.c: the entries' fast path under --time-by=samples, which
 * trace_fast_paths_choose() chooses for -pg and -mfentry builds */
HIDDEN uintptr_t callscope_hook_enter_sampled(uintptr_t *ret_slot, uint64_t self);
EXPORT void __cyg_profile_func_enter(void *fn, void *site);
EXPORT void __cyg_profile_func_exit(void *fn, void *site);
EXPORT void __monstartup(unsigned long low, unsigned long high);
EXPORT void _mcleanup(void);

/* trace.c: the hot path, parameterized by thread state for calibration */
HIDDEN void trace_enter(struct thread_state *t, uint64_t addr, uintptr_t sp,
			uintptr_t *ret_slot);
HIDDEN void trace_enter_named(struct thread_state *t, uint64_t addr, uintptr_t sp,
			      uintptr_t site, uintptr_t hook_pc);
HIDDEN uintptr_t trace_return(struct thread_state *t, uintptr_t slot);
HIDDEN void trace_exit_named(struct thread_state *t, uint64_t addr);
/* exceptions.c: stand-ins for the unwinder's entry points, and what they
 * call around C++ exceptions (see trace.c) */
struct _Unwind_Exception;
EXPORT int _Unwind_RaiseException(struct _Unwind_Exception *e);
EXPORT int _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *e);
EXPORT void *__cxa_begin_catch(void *e);
HIDDEN void trace_exception_thrown(struct thread_state *t);
HIDDEN void trace_exception_caught(struct thread_state *t, uintptr_t sp, int last);
/* backtrace.c: the stand-in for glibc's, which gives the real return
 * addresses back for the walk */
EXPORT int backtrace(void **buffer, int size);
/* context.c calls this before swapcontext/setcontext, sigaction.c before
 * a handler that runs on a higher stack (see trace.c) */
HIDDEN void trace_stack_switch(struct thread_state *t);
/* The calling thread's state: initial-exec TLS, one instruction away. */
extern __thread struct thread_state runtime_thread
	__attribute__((tls_model("initial-exec"))) HIDDEN;
static inline struct thread_state *trace_current(void)
{
	return &runtime_thread;
}

/* unwind_threads.c: the threads an unwinder searches for the real return
 * address of a redirected frame (see patch/unwind_info.c); a thread is
 * listed while it has a shadow stack. */
#define UNWIND_THREADS_MAX 1024u
extern struct thread_state *unwind_threads[UNWIND_THREADS_MAX] HIDDEN;
extern struct thread_state **unwind_threads_end HIDDEN;
HIDDEN void unwind_threads_add(struct thread_state *t);
HIDDEN void unwind_threads_remove(struct thread_state *t);

/* thread_buffer.c: staging file of one thread (slow path only) */
HIDDEN int thread_buffer_open(struct thread_state *t, uint32_t flags);
HIDDEN int thread_buffer_grow(struct thread_state *t);
/* Runs FN(ARG), a hook's work through libc, with the vector state and
 * errno kept and its time left out of T's clock. */
HIDDEN int thread_paused_call(struct thread_state *t, int (*fn)(void *), void *arg);

/* hook_sites.c: nonzero when SITE, the call site of an entry hook that
 * looks like a tail call from the innermost frame, whose own entry was
 * OPEN_SITE, lies inside that frame's function at another site: the hook
 * of a copy inlined there (clang -flto -pg), no call at all. */
HIDDEN int hook_site_inlined(struct thread_state *t, uintptr_t site, uintptr_t open_site);

/* Whether T's table says SITE and OPEN_SITE lie in functions of their
 * own (or are one site) without a lookup: 0 when it cannot say, or says
 * they share one (hook_site_inlined() then decides).  Inline: the hooks'
 * fast paths call nothing, and so save no registers. */
static inline __attribute__((always_inline)) int
hook_sites_apart(const struct thread_state *t, uintptr_t site, uintptr_t open_site)
{
	if (site == open_site || !t->sites)
		return 1;
	const struct hook_site *a = &t->sites[hook_site_index(site)];
	const struct hook_site *b = &t->sites[hook_site_index(open_site)];
	return a->site == site && b->site == open_site && (a->start != b->start || !a->start);
}
/* A flight recorder's SYNC was just placed: readies the ring's next part
 * in its first lap. */
HIDDEN void thread_buffer_ring_ahead(struct thread_state *t);
HIDDEN void thread_buffer_close(struct thread_state *t);
/* Puts [OFF, OFF + LEN) of FD, reserved and holding nothing yet, into the
 * page cache by writing zeros, before a mapping of it is populated. */
HIDDEN void thread_buffer_fill(int fd, uint64_t off, uint64_t len);

/* thread.c: a thread's life.  thread_start() is the slow path of its
 * first hook (returns nonzero if it now records; it keeps the vector
 * registers around its calls into libc); the others are called
 * once at start-up, at the process's exit and in a forked child. */
HIDDEN int thread_start(struct thread_state *t);
HIDDEN int thread_lifecycle_install(void);
HIDDEN void thread_process_exiting(struct thread_state *t);
HIDDEN void thread_after_fork(struct thread_state *t);
HIDDEN void thread_after_fork_unrecorded(struct thread_state *t);
/* init.c: what the runtime's fork handlers do in a child, for a child
 * that clone() made without running them (clone.c), but start a thread */
HIDDEN void runtime_cloned(void);
/* Whether the calling thread records, starting it on its first hook. */
static inline int runtime_thread_ready(struct thread_state *t)
{
	return LIKELY(t->status == THREAD_RECORDING) || thread_start(t);
}

/* trace.c: records written outside the call path */
HIDDEN void trace_emit_sync(struct thread_state *t, uint64_t now);
HIDDEN void trace_emit_note(struct thread_state *t, unsigned subtype, uint64_t value,
			    const char *text, size_t len);
/* Takes up a stop, start or reset made since the thread last looked (the
 * hooks do so on every call); for the sampler, whose threads may run no
 * hooks at all.  The caller holds the thread's guard. */
HIDDEN void trace_check_capture(struct thread_state *t);

/* sigaction.c: libc's own sigaction, past the runtime's stand-in */
struct sigaction;
HIDDEN int runtime_real_sigaction(int sig, const struct sigaction *act,
				  struct sigaction *old);

/* aggregate.c: the aggregate mode's call-path nodes */
HIDDEN int aggregate_open(struct thread_state *t);
HIDDEN void aggregate_close(struct thread_state *t);
/* aggregate_enter() and aggregate_exit(), every call's: aggregate_count.h */
HIDDEN void aggregate_capture(struct thread_state *t, int on, uint64_t now);
/* Sets T up to count into the caller's NRECORDS records and tables, for
 * the calibration; CACHE holds AGGREGATE_CACHE_SLOTS slots, FUNC_SLOTS a
 * power of two. */
#define AGGREGATE_CACHE_SLOTS 4096u
HIDDEN void aggregate_use(struct thread_state *t, struct cct_record *records, uint32_t nrecords,
			  struct cct_cache_slot *cache, struct cct_func_slot *func_slots,
			  uint32_t nfunc_slots);

/* sampled_count.c: --time-by=samples, the hooks' side and the sampler's */
HIDDEN void sampled_count_enter(struct thread_state *t, uint64_t addr, uintptr_t sp,
				uintptr_t *ret_slot, uintptr_t site, uintptr_t hook_pc);
HIDDEN void sampled_count_exit_named(struct thread_state *t, uint64_t addr);
/* Whether a frame entered with a return slot has its return redirected
 * through the trampoline: always in a trace, flight or clock-timed count,
 * but under --time-by=samples only where -finstrument-functions hooks
 * leave a library call no other way to see its return; every other frame
 * there learns of its return by the stack pointer, and one redirected all
 * the same would come back through the trampoline after its frame was
 * dropped. */
static inline int returns_redirected(void)
{
	return !runtime_config.contract.time_by_samples ||
	       (runtime_config.contract.hooks & CONTRACT_HOOKS_CYG);
}
/* A timer sample of WEIGHT periods at PC and SP, on a thread whose stack
 * is [STACK_LO, STACK_HI) (0, 0: not known); IN_RUNTIME: the thread was
 * inside the runtime (a hook, a patched entry's jump or trampoline),
 * whose cost it then measures; UNHOOKED: where the function holding PC
 * begins when PC lies in an object without hooks (libc's realloc), else 0. */
HIDDEN void sampled_count_sample(struct thread_state *t, uintptr_t pc, uintptr_t sp,
				 uintptr_t stack_lo, uintptr_t stack_hi, int in_runtime,
				 uintptr_t unhooked, uint64_t weight);

/* cpu_wait.c: the waits for a CPU left out of the thread's clock.
 * cpu_wait_start() is the process's, at start-up; cpu_wait_open() is the thread's own (slow path); cpu_wait_take() the
 * hooks' when switch records arrived, see thread_clock(). */
HIDDEN void cpu_wait_start(void);
HIDDEN void cpu_wait_open(struct thread_state *t);
/* Starts opening the main thread's records on a thread of the runtime's
 * own, once, at start-up, for a run whose calls the clock times. */
HIDDEN void cpu_wait_open_aside(void);
HIDDEN void cpu_wait_close(struct thread_state *t);
HIDDEN void cpu_wait_take(struct thread_state *t);
/* Whether the thread's waits for a CPU are being left out of its clock. */
HIDDEN int cpu_wait_left_out(const struct thread_state *t);

/* counters.c */
HIDDEN int counters_open(struct thread_state *t);
HIDDEN void counters_close(struct thread_state *t);
HIDDEN void counters_read(struct thread_state *t);

/* signals.c */
HIDDEN void signals_install(void);
/* Finds libc's sigprocmask and pthread_sigmask, which the runtime stands
 * in for (sigaction.c), before any handler may call them. */
HIDDEN void signal_masks_resolve(void);
/* The signals the runtime keeps unblocked (SIGTRAP while patched entries
 * trap, the sampler's signal) that the calling thread's program blocked,
 * one bit per signal from bit 0 for signal 1: what a thread it creates
 * inherits. */
HIDDEN uint64_t signal_masks_program_blocked(void);
/* As a thread starts: it takes INHERITED as its own, and unblocks the
 * kept signals its mask holds (set by a raw system call), which the
 * program still reads back as blocked.  Before the thread's first sample. */
HIDDEN void signal_masks_thread_start(uint64_t inherited);

/* arch/x86_64/keep_vectors.S: libc called from inside a hook */
/* Whether the processor and the kernel save the extended state with xsave
 * (bit OSXSAVE of CPUID 1), as the runtime starts; else fxsave serves. */
HIDDEN extern int callscope_xsave_ok;
/* Calls FN(ARG) with the vector and x87 state saved around it: for the
 * work a hook does through libc. */
HIDDEN int callscope_call_keeping_vectors(int (*fn)(void *), void *arg);

/* process.c: process and object sections */
/* Describes this process image, child of PARENT, with the hooks' costs
 * the start measured (runtime_config): the compiler hooks' and the
 * library calls', so a process that never reaches its exit (killed, or
 * replaced by exec) keeps both figures. */
HIDDEN int process_write_start(pid_t parent);
HIDDEN void process_write_end(uint32_t reason);
/* Appends the whole section of N bytes at P to the process file, in one
 * write(); 0, or -1 when it could not. */
HIDDEN int process_write_section(const uint8_t *p, size_t n);
/* init.c: the process ends by exit() or _exit(): the exiting thread's
 * calls close, the hooks' cost is measured again when MEASURE_HOOKS, and
 * the process's end is written, once. */
HIDDEN void runtime_process_exiting(int measure_hooks);
/* Writes the PROCESS_END (reason exec, at STARTED and STARTED_MONO) of
 * the image of this pid that the environment's image mark names, if it
 * is not this one, then marks the environment as this image's. */
HIDDEN void process_image_replaced(uint64_t started, uint64_t started_mono);
/* Marks the environment as this image's (a fork child's, once its
 * process file is made). */
HIDDEN void process_image_mark(void);
/* Marks ENVP, an environment the program execs with, as this image's. */
HIDDEN void process_image_mark_env(char *const envp[]);
/* The calling thread's CPU time and its time waiting, runnable, for a
 * CPU (/proc/thread-self/schedstat), in ns. */
struct sched_times {
	uint64_t cpu_ns, wait_ns;
	/* of the waiting, what the thread's clock left out (cpu_wait.c);
	 * LEFT_OUT: whether it could (it saw the thread's switches) */
	uint64_t left_out_ns;
	int left_out;
};
/* Fills *OUT; -1 when the kernel keeps no such figures. */
HIDDEN int process_sched_times(struct sched_times *out);
/* hook_samples.c: the samples beside a trace that fell in the hooks of
 * a call, weighted, by the side of the hook's clock read they fell on */
struct hook_sample_counts {
	uint64_t taken;		/* every sample beside the trace */
	uint64_t inner, outer;	/* in the callee's interval, in the caller's */
	uint64_t unsure;	/* in the hooks, the side not known */
	uint64_t period_ns;	/* thread CPU time a sample stands for */
	/* the same three for the hooks of library calls, which are
	 * counted apart from the above, and how many such calls the
	 * process's threads entered */
	uint64_t library_inner, library_outer, library_unsure;
	uint64_t library_calls;
};
/* From the sampler's handler: a sample at PC interrupted T; SELF_LO and
 * SELF_HI bound the runtime's code. */
HIDDEN void hook_samples_note(const struct thread_state *t, uintptr_t pc, uintptr_t self_lo,
			      uintptr_t self_hi, uint64_t weight);
HIDDEN void hook_samples_set_period(uint64_t period_ns);
HIDDEN struct hook_sample_counts hook_samples_counts(void);
HIDDEN void hook_samples_after_fork(void);
/* A thread's count of library calls entered (T->library_calls), added to
 * the process's as it ends or the process exits; T's count restarts. */
HIDDEN void hook_samples_add_library_calls(struct thread_state *t);

/* A hooks' cost per call in clock units x 256: inside the callee's
 * interval, and in the caller's (calibrate.c). */
struct hook_cost_x256 {
	uint32_t inner, outer;
};

/* The hooks' cost measured again at exit (calibrate.c), in the units of
 * process_write_start()'s, the compiler hooks' (HOOKS) and a library
 * call's (LIBRARY; the start's is in runtime_config), and what the main
 * thread ran and waited for a CPU since the start's measurement (0, 0:
 * not known). */
HIDDEN void process_write_calibration(struct hook_cost_x256 hooks, struct hook_cost_x256 library,
				      int measured,
				      struct sched_times ran,
				      const struct hook_sample_counts *samples);
/* Describes the objects loaded since the last look (dlopen) and tells the
 * sampler of them; cheap when nothing was loaded.  Never from a signal
 * handler: it takes the loader's lock. */
HIDDEN void process_objects_refresh(void);
/* fork() waits for a refresh to end: pthread_atfork's three handlers */
HIDDEN void process_fork_prepare(void);
HIDDEN void process_fork_parent(void);
HIDDEN void process_fork_child(void);
/* The GNU build ID of a loaded object (*LEN bytes), or NULL. */
struct dl_phdr_info;
HIDDEN const uint8_t *runtime_build_id(const struct dl_phdr_info *info, size_t *len);

/* patch/unwind_register.c: gives libgcc's unwinder and gdb the unwind
 * information of the places the runtime makes redirected calls return
 * to, so that they walk on through them (once, at start, when tracing). */
HIDDEN void unwind_describe_return_points(void);

/* patch/: patched function entries (record --patch) */
HIDDEN void patch_install(void);
/* Writes the MOVED_CODE sections of the objects patched so far into this
 * process's file (a forked child's own, under its pid). */
HIDDEN void patch_write_moved_code(void);
/* Patches the planned objects dlopen loaded since; threads may run. */
HIDDEN void patch_loaded(void);
/* Nonzero when ADDR is where a patched function's trampoline gets its
 * return: the frame's real return address is on the shadow stack. */
HIDDEN int patch_is_return_point(uintptr_t addr);
/* Nonzero when PC is the patching's own code, not the program's: a
 * trampoline's instructions (the displaced ones it runs are the
 * function's). */
HIDDEN int patch_is_own_code(uintptr_t pc);
/* libcall/patch.c: nonzero when PC is in a stub a hooked GOT slot leads
 * to, a library call's hook; async-signal-safe */
HIDDEN int libcall_in_stubs(uintptr_t pc);
/* The patched function whose entry's jump (or the endbr64 before it) lies
 * at PC, else 0.  The thread has not run the jump yet: a timer sample
 * there waited for the call that landed on it, the program's time, which
 * perf gives to the function called; the jump's own time shows at the
 * trampoline's first instruction. */
HIDDEN uintptr_t patch_entry_function(uintptr_t pc);
/* Nonzero when ADDR lies in an object whose function entries were
 * patched: it is traced as one with compiler hooks is. */
HIDDEN int patch_covers(uintptr_t addr);
/* sigaction() on SIGTRAP while patched entries trap: ACT becomes the
 * action other traps go to, *OLD the one it replaces; returns 1, or 0
 * when no trap is patched (the caller sets the action itself). */
struct sigaction;
HIDDEN int patch_trap_sigaction(const struct sigaction *act, struct sigaction *old);
/* A function whose call costs what a patched call adds, for
 * calibrate.c; NULL if it cannot be made. */
HIDDEN void (*patch_calibration_target(void))(void);

/* calibrate.c */
HIDDEN void calibrate_overhead(struct hook_cost_x256 *hooks, struct hook_cost_x256 *library);
/* Puts the hooks' cost at start-up into runtime_config, and notes the
 * calling (main) thread's CPU and waiting times so far: the figures the
 * run's first measurement left (hook_cost_shared.c), else measured here
 * and left for the run's later images.  CONTRACT_TEXT: the launcher's
 * contract as the environment gave it. */
HIDDEN void calibrate_at_start(const char *contract_text);
/* In a forked child, whose thread's CPU and waiting times start at 0. */
HIDDEN void calibrate_after_fork(void);
/* Measures the hooks' cost again as the process exits and records it
 * (a trace, a flight recording; count mode keeps the start's figure),
 * with the library calls' figures and count and the main thread's CPU
 * and waiting times since start; the sampler is held off meanwhile. */
HIDDEN void calibrate_at_exit(void);

/* hook_cost_shared.c: the hooks' cost measured once a run, for the
 * images exec starts later.  A figure is used only where KEY
 * (hook_cost_shared_key()) is the one it was measured with. */
struct hook_cost_figures {
	struct hook_cost_x256 hooks, library;
	uint32_t counter_cost;
	uint32_t reserved;
};
HIDDEN uint64_t hook_cost_shared_key(const char *contract_text, int library_traced);
/* 0 and *OUT filled when the run's figures are there for KEY, else -1. */
HIDDEN int hook_cost_shared_read(uint64_t key, struct hook_cost_figures *out);
/* Leaves FIGURES for KEY, unless an earlier measurement's are there. */
HIDDEN void hook_cost_shared_write(uint64_t key, const struct hook_cost_figures *figures);

/* own_thread.c: starts FN(ARG) on a detached thread of the runtime's own,
 * every signal blocked; 0, or -1 when no thread could be made. */
HIDDEN int runtime_thread_spawn(void *(*fn)(void *), void *arg);
/* The stack of a thread runtime_thread_spawn_unseen() starts: one start
 * per process image. */
struct unseen_stack {
	int used;
	char bytes[32 * 1024] __attribute__((aligned(16)));
};
/* own_thread.c: starts FN(ARG) on STACK on a thread of the runtime's own
 * that glibc does not know of, every signal blocked; FN may make
 * raw_syscall.h's calls only.  0, or -1 when no thread could be made. */
HIDDEN int runtime_thread_spawn_unseen(int (*fn)(void *), void *arg, struct unseen_stack *stack);
/* Gives the calling thread of the runtime's own an empty table of
 * descriptors, apart from the program's: what it opens takes no number
 * of the program's; 0, or -1 (the table stays shared). */
HIDDEN int runtime_thread_own_descriptors(void);
/* Whether the calling thread of the runtime's own is the last one alive
 * in the process: the program's threads have all ended, the first by
 * pthread_exit (its leader a zombie until the process ends). */
HIDDEN int runtime_thread_alone(void);
/* Opens what runtime_thread_alone() reads; on the thread that starts the
 * one that calls it, before it does (again in a fork's child). */
HIDDEN void runtime_thread_alone_prepare(void);

/* fd_above_limit.c: FD, which the runtime keeps open, moved at or above
 * the soft RLIMIT_NOFILE (out of the numbers the program uses and scans)
 * and closed; returns the descriptor to use, FD itself when there is no
 * room (the hard limit is the soft one) or the move fails.  CLOEXEC is
 * kept.  Move a perf event before setting its O_ASYNC: its signals carry
 * the number it had then. */
HIDDEN int rt_fd_above_limit(int fd);
/* The same for a signal handler, which must not wait for a move under
 * way (its own thread's may be, in a fork's handlers): -1 with errno
 * EAGAIN and FD closed when one is. */
HIDDEN int rt_fd_above_limit_nowait(int fd);
/*
 * fd_above_limit.c: a /proc file that a thread of the runtime's own reads again and
 * again while the program runs.  Opened there, it would take the
 * program's lowest free number for a moment, and a dup2() of the
 * program's onto that number meanwhile would have the runtime read and
 * close the program's file.  So it is opened once, by the thread that
 * starts the recording (again in a fork's child, whose /proc/self is
 * another), above the descriptor limit, and read with pread().
 */
struct rt_kept_file {
	int fd;			/* -1 until opened */
	struct rt_file_id id;
};
HIDDEN void rt_kept_file_open(struct rt_kept_file *f, const char *path);
/* Up to SIZE bytes of F from offset AT; -1 when the program closed it. */
HIDDEN ssize_t rt_kept_file_read(const struct rt_kept_file *f, char *buf, size_t size, off_t at);
/* fork handlers that keep a move from being under way in a child;
 * installed before any other fork handler of the runtime, as their child
 * halves move descriptors */
HIDDEN void fd_above_limit_install(void);
/* A child of clone(), which runs no fork handlers: the limit as the
 * program set it, and no move under way. */
HIDDEN void fd_above_limit_cloned(void);

/* util.c: async-signal-safe helpers */
HIDDEN char *rt_append(char *p, char *end, const char *s);
HIDDEN char *rt_append_u64(char *p, char *end, uint64_t v);
/* util.c: struct rt_file_id of FD, and whether FD still is that file */
HIDDEN void rt_file_id_of(int fd, struct rt_file_id *id);
HIDDEN int rt_fd_is(int fd, const struct rt_file_id *id);
/* close(FD) if it still is the file ID */
HIDDEN void rt_close_own(int fd, const struct rt_file_id *id);
/* The id of FD's perf event, 0 when FD is none: every perf event
 * descriptor shares one inode, so this tells the runtime's own event
 * from one the program opened (or an eventfd) under the same number. */
HIDDEN uint64_t rt_perf_id(int fd);
/* util.c: up to SIZE bytes of a small file (a /proc entry); how many */
HIDDEN size_t rt_read_small_file(const char *path, char *buf, size_t size);
/* A line "callscope: MSG: DETAIL" on the program's stderr, or in record
 * --log's file once rt_log_init() has read its name. */
HIDDEN void rt_warn(const char *msg, const char *detail);
/* exec_target.c: before an exec of FILE (searched along $PATH when
 * SEARCH, as execvp does) with the environment ENVP, one line on stderr
 * when the program it starts will not be recorded, and why. */
HIDDEN void exec_target_check(const char *file, int search, char *const envp[]);
HIDDEN void rt_log_init(void);
/* rt_warn of PARTS (ended by NULL) joined, or of SHORT when they do not
 * fit a line. */
HIDDEN void rt_warn_joined(const char *const parts[], const char *short_msg);
HIDDEN uint64_t rt_file_room(uint64_t offset, uint64_t want);
/* The next definition of NAME after the runtime's own stand-in (libc's,
 * libgcc's, libstdc++'s); aborts with one line when there is none, as
 * the program called it and cannot go on without it. */
HIDDEN void *runtime_next_symbol(const char *name);

#include "clock.h"

static inline uint64_t runtime_now(void)
{
	return clock_now(runtime_config.contract.clock);
}

/* The run's clock and CLOCK_MONOTONIC at one instant (clock.h says how). */
static inline struct clock_pair runtime_now_pair(void)
{
	return clock_pair_read(runtime_config.contract.clock);
}

uintptr_t signals_send_held(struct thread_state *t, uintptr_t result);
/* Drops the signals T holds: a forked child starts with none pending. */
void signals_forget_held(struct thread_state *t);

/*
 * The guard is taken before the runtime changes a thread's shadow stack
 * or stream, and freed after its last access to them.  A signal handler
 * may run between any two instructions, so the compiler must not move
 * those accesses across the plain store to the guard: the fences keep
 * them in place and cost no instruction.
 */
static inline void guard_take(struct thread_state *t, int what)
{
	t->guard = what;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/*
 * Gives the guard back the value it had before guard_take(), WAS, and
 * returns RESULT.  Once the guard is free, the program's signals that
 * arrived while it was held (sigaction.c keeps them) are sent again, so
 * that their handlers run, and are recorded, outside the runtime.  The
 * hooks' fast paths return through here: the rare call is then a tail
 * call, and their common path saves no register for it.
 */
/* Sets the guard to WAS, fenced as guard_take() is, and sends nothing:
 * the step guard_restore_returning() and signals_send_held() share. */
static inline void guard_put(struct thread_state *t, int was)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->guard = was;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline uintptr_t guard_restore_returning(struct thread_state *t, int was,
						uintptr_t result)
{
	guard_put(t, was);
	if (UNLIKELY(t->signals_held) && !was)
		return signals_send_held(t, result);
	return result;
}

static inline void guard_restore(struct thread_state *t, int was)
{
	guard_restore_returning(t, was, 0);
}

/* The hook's clock read is done: T's guard says so from here on (the
 * barrier keeps the store after the read, where the sampler expects it). */
static inline void hook_clock_read(struct thread_state *t, int guard)
{
	__asm__ volatile("" ::: "memory");
	t->guard = guard;
}

/*
 * Makes the record just written at t->cur part of the thread's stream:
 * the one commit step of every writer (the hooks, the sampler, the
 * thread's end).  A flight recorder's record that ran past the ring's end
 * continues at its start (the ring is mapped twice in a row): the write
 * point and the window's end move back by a ring, the file offset of the
 * window on by one, so the committed offset keeps growing.  The header's
 * commit point is stored last, with release order: a reader that sees it
 * sees the record's bytes.
 */
static inline void thread_commit(struct thread_state *t)
{
	if (UNLIKELY(t->cur >= t->ring_end)) {
		t->cur -= t->ring_bytes;
		t->end -= t->ring_bytes;
		t->win_file_off += t->ring_bytes;
	}
	t->hdr->events_written++;
	__atomic_store_n(&t->hdr->committed_end,
			 t->win_file_off + (uint64_t)(t->cur - t->win_base),
			 __ATOMIC_RELEASE);
}

/* The thread's event clock: real time less the profiler's pauses and
 * the waits for a CPU taken so far. */
static inline uint64_t thread_now(const struct thread_state *t)
{
	return runtime_now() - t->paused;
}

/* Leaves UNITS more out of T's clock.  The total is kept in the staging
 * header too, where the launcher finds it however the process ends: calls
 * still open when it ended close at its end, a reading of the real clock,
 * less this total (the THREAD_PAUSED section). */
static inline void thread_pause_add(struct thread_state *t, uint64_t units)
{
	t->paused += units;
	if (t->hdr)
		t->hdr->paused = t->paused;
}

/* Leaves the runtime's own work since BEGAN, a clock reading, out of the
 * thread's clock.  A wait for a CPU inside that stretch is then in the
 * pause already: the next look at the switch records takes only waits
 * after it, as after a clock reading (cpu_wait_take()). */
static inline void thread_pause_since(struct thread_state *t, uint64_t began)
{
	uint64_t now = runtime_now();

	thread_pause_add(t, now - began);
	t->clock_last = now;
	t->pause_began = began;
	t->pause_ended = now;
}

/* Whether waits for a CPU ended since the thread last took them. */
static inline int thread_waits_pending(const struct thread_state *t)
{
	return t->wait_head && *t->wait_head != t->wait_tail;
}

/* Points T's wait_head where no wait is ever pending: its own wait_tail. */
static inline void thread_waits_none(struct thread_state *t)
{
	t->wait_head = &t->wait_tail;
}

/* thread_waits_pending() for a thread that records: its buffer opened,
 * so wait_head is set (thread_buffer_open()), one test less. */
static inline int thread_waits_pending_open(const struct thread_state *t)
{
	return *t->wait_head != t->wait_tail;
}

/* The thread's event clock for a hook, from NOW, a reading after which
 * no waits were pending (thread_clock() says why after). */
static inline uint64_t thread_clock_at(struct thread_state *t, uint64_t now)
{
	t->clock_last = now;
	return now - t->paused;
}

/* The thread's event clock for a hook, less the waits for a CPU that
 * ended since the last look (one load when there are none).  The look
 * comes after the reading: a thread preempted between a look and its
 * reading would have the wait in the reading, and so in the call's time,
 * for good (cpu_wait_take() cannot take a wait off a reading already
 * made); a wait after the reading is in the next one, and taken then. */
static inline uint64_t thread_clock(struct thread_state *t)
{
	uint64_t now = runtime_now();

	while (UNLIKELY(thread_waits_pending(t))) {
		cpu_wait_take(t);
		now = runtime_now();
	}
	return thread_clock_at(t, now);
}

#endif
