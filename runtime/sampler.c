/*
 * The sampler: statistical profiling of any binary, instrumented or not.
 *
 * Each thread gets its own source of samples, which signals that very
 * thread: a perf_event task-clock counter of its CPU time (see
 * open_task_clock(); SIGTRAP, or a free real-time signal), else a POSIX
 * timer (timer_create with SIGEV_THREAD_ID) on its CPU-time clock
 * (CLOCK_THREAD_CPUTIME_ID), or on CLOCK_MONOTONIC for
 * --sample-clock=wall.  A thread is thus sampled in proportion to
 * the CPU it uses, with no reader of a perf ring; the timer also where
 * perf_event_open is forbidden (perf_event_paranoid, seccomp), and for the
 * main thread's first milliseconds while another thread opens its event,
 * which may wait in the kernel (see handover).  The kernel checks CPU-time timers at its tick, so at a rate above the tick one
 * signal stands for several periods: the timer's overrun says how many,
 * and each sample carries that weight.
 *
 * The handler is async-signal-safe: it reads the PC, stack pointer and
 * frame pointer from the interrupted context, walks the frame-pointer
 * chain (bounded, and checked against the thread's stack bounds, which
 * are read when the thread starts, never in the handler), and appends a
 * SAMPLE record to the thread's file-backed buffer.
 *
 * Frame pointers are cheap but only right where the code keeps them: a
 * function built without them uses rbp as an ordinary register, so a walk
 * through it stops early or skips its caller.  By default (stack=auto)
 * the walk is kept only when the PC and every frame it passed lie in
 * objects whose call frame information says they keep frame pointers
 * (frame_pointers.c, decided once per object outside the handler) and the
 * chain ended where the ABI marks a thread's first frame (a zero frame
 * pointer); from the first frame that is not, the walk follows the
 * objects' call frame information (cfi.c), which reaches the thread's
 * first frame however large the frames are.  Where neither goes on (code
 * loaded later, no FDE, a rule it does not know) the sample carries a copy
 * of the stack from that frame for DWARF unwinding offline, as
 * --stack=dwarf does for every sample.  A sample that cannot
 * be written (the thread is inside a hook, its buffer is full) is counted
 * and the count travels with the next written sample; while capture is
 * off (stopped by the program, a trigger or `callscope live`) nothing is
 * sampled and nothing is lost.  Each sample first takes up a stop, start
 * or reset the thread has not seen, as every hook does: a thread of a
 * program without hooks has no other moment to.
 *
 * Threads the program starts later get their timer from the runtime's
 * pthread_create, which wraps the start routine; a program without
 * hooks would otherwise never tell the runtime a thread exists.  A forked
 * child gets a fresh timer (timers are not inherited).
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "call_before.h"
#include "cfi.h"
#include "control.h"
#include "eh_frame.h"
#include "frame_pointers.h"
#include "libcall/libcall.h"
#include "plt_stub.h"
#include "sampler.h"
#include "sampling.h"
#include "stream.h"
#include "raw_syscall.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
/* header-only: RUNNING_ON_VALGRIND, a client request (see on_valgrind()) */
#include <valgrind/valgrind.h>

#define ONLY_RANGES_MAX 64
#define TEXT_RANGES_MAX 256
#define UNHOOKED_MAX 64
/* frames_hi lies 64 bytes above the stack the program started with, and
 * the loader's entry aligns it down by up to 15 before its first call */
#define STACK_END_SLACK 80

/* Per-thread sampler state; the handler reads nothing else but the
 * thread's buffer. */
struct sampler_thread {
	int armed;
	int perf_fd;		/* the task-clock event, or -1: the POSIX timer */
	uint64_t perf_id;	/* its event's id (rt_perf_id) */
	int has_timer;		/* TIMER exists (disarmed once the event took over) */
	int awaiting;		/* the main thread's event is being opened for it */
	int short_period;	/* the event's first period is the rest of the timer's */
	/* the event's periods: those signalled or counted lost, and how much
	 * shorter than a full period the first was (see blocked_periods()) */
	uint64_t periods_seen, first_short_ns;
	timer_t timer;
	/* while awaiting: the thread's CPU time when its timer started, how
	 * much shorter than a period its first was, and the periods the
	 * timer's signals weighed since (see take_event()) */
	uint64_t timer_start_ns, timer_first_short_ns, timer_weight;
	uintptr_t stack_lo, stack_hi;	/* [lo, hi): 0 when unknown */
	uintptr_t frames_hi;	/* where the frames end: what a copy needs */
	uint64_t missed;		/* samples not written since the last one */
	int in_exec;		/* between sampler_exec_begin() and its end */
};

static __thread struct sampler_thread sampler_tls
	__attribute__((tls_model("initial-exec")));

static struct {
	int on;
	int signo;
	int events;		/* task-clock events may be tried (else the timer) */
	int sigtrap;		/* task-clock events signal by SIGTRAP themselves */
	/* the threads' task-clock events count the kernel's time on their
	 * behalf too (perf_event_paranoid allows it; see sampler_exec_begin) */
	int with_kernel;
	int wall;
	uint64_t period_ns;
	size_t nranges;
	uintptr_t lo[ONLY_RANGES_MAX], hi[ONLY_RANGES_MAX];
	/* the executable segments of every object loaded at start-up */
	size_t ntext;
	uintptr_t text_lo[TEXT_RANGES_MAX], text_hi[TEXT_RANGES_MAX];
	uint8_t text_fp[TEXT_RANGES_MAX];	/* its object keeps frame pointers */
	/* stack=auto: its object's call frame information, when readable */
	uint8_t text_has_cfi[TEXT_RANGES_MAX];
	struct eh_table text_cfi[TEXT_RANGES_MAX];
	/* those of objects loaded since (dlopen), appended by the control
	 * thread and published by nknown: a return address there is taken
	 * as one, but the code is never read, as the object may be closed */
	size_t nknown;
	uintptr_t known_lo[TEXT_RANGES_MAX], known_hi[TEXT_RANGES_MAX];
	uint8_t known_fp[TEXT_RANGES_MAX];
	struct sampling settings;
	/* the runtime's own code: a sample there is the hooks' cost */
	uintptr_t self_lo, self_hi;
	/* a trace is sampled, beside it (--outside-freq) or with its
	 * stacks (--sample): the samples in its hooks measure their cost
	 * in place (hook_samples.c) */
	int hooks_measured;
	/* --time-by=samples: the code of objects loaded at start-up without
	 * hooks (libc, libm...), where a sample is named by its function */
	size_t nunhooked;
	struct {
		uintptr_t lo, hi;
		struct eh_table functions;
	} unhooked[UNHOOKED_MAX];
} sampler;

static pthread_key_t sampler_key;

/*
 * The main thread's task-clock event.  The first per-thread perf event
 * opened on a machine that had none for about a second waits in
 * perf_event_open() for an RCU grace period (the kernel turns its
 * context-switch hooks for such events back on and waits until every CPU
 * sees them): 8-20 ms here, which would otherwise be the program's wall
 * time.  So the POSIX timer samples the main thread at first
 * (start_main_thread()) while a thread of the runtime's own, unseen by
 * glibc (own_thread.c says why), opens the *waker* (warm_and_wake()): an
 * event of the main thread's CPU time whose one short period ends in a
 * signal to the main thread, whose handler then opens the thread's own
 * event, at once now that the kernel's hooks are on, and takes over from
 * the timer (take_event()).  The waker stays
 * open until then, which keeps them on.
 *
 * The waker lives in a table of descriptors of its thread's own
 * (runtime_thread_own_descriptors()): the kernel reserves an event's
 * number for the whole wait, and one reserved in the program's table
 * fails the program's dup2() onto it.  Its signal, not the timer's: the
 * kernel checks CPU-time timers at its tick, and on a loaded machine a
 * thread's timer may signal rarely or not at all any more (seen on Linux
 * 6.18: 200 ms of a thread's CPU time without one signal), while the
 * event, driven by a high-resolution timer of its own, signals on time.
 * Nor one sent by that thread (tgkill): the event's comes only while the
 * main thread runs, so it ends none of the program's sleeps early.
 */
enum handover_state {
	HANDOVER_NONE,		/* nothing awaited: taken, or the thread stopped */
	HANDOVER_OPENING,	/* the waker is being opened: the kernel may wait */
	HANDOVER_READY,		/* the waker runs: its signal takes over */
	HANDOVER_AGAIN,		/* its signal could not: start the waker again */
	HANDOVER_ALONE,		/* no waker: the timer's next signal takes over */
};
/* the waker's period: a few microseconds of the main thread's CPU time;
 * it stops after one (PERF_EVENT_IOC_REFRESH 1) */
#define HANDOVER_WAKER_PERIOD_NS 20000
/* how long the waker waits for the main thread to run that long before it
 * leaves the timer to take over */
#define HANDOVER_WAKER_WAIT_NS 1000000000u
/* how long a thread started meanwhile waits for the waker to be opened
 * before it opens its own event, which may then wait in the kernel */
#define HANDOVER_OPENING_WAIT_NS 100000000u
static struct {
	int state;		/* enum handover_state; waited on as a futex */
	int waker_fd;		/* the waker's number, in its thread's table */
	pid_t tid;		/* the main thread */
} handover = { HANDOVER_NONE, -1, 0 };

static int in_only(uintptr_t pc)
{
	size_t n = __atomic_load_n(&sampler.nranges, __ATOMIC_ACQUIRE);

	for (size_t i = 0; i < n; i++)
		if (pc >= sampler.lo[i] && pc < sampler.hi[i])
			return 1;
	return 0;
}

/* The index of the range of code loaded at start-up that holds ADDR, or
 * -1. */
static long text_range_at(uintptr_t addr)
{
	for (size_t i = 0; i < sampler.ntext; i++)
		if (addr >= sampler.text_lo[i] && addr < sampler.text_hi[i])
			return (long)i;
	return -1;
}

/* Whether [ADDR - BEFORE, ADDR) lies in loaded code (readable). */
static int in_text(uintptr_t addr, uintptr_t before)
{
	long r = text_range_at(addr);

	return r >= 0 && addr >= sampler.text_lo[r] + before;
}

/* Whether ADDR lies in code whose object keeps frame pointers. */
static int in_frame_pointer_code(uintptr_t addr)
{
	long r = text_range_at(addr);

	if (r >= 0)
		return sampler.text_fp[r];
	size_t n = __atomic_load_n(&sampler.nknown, __ATOMIC_ACQUIRE);
	for (size_t i = 0; i < n; i++)
		if (addr >= sampler.known_lo[i] && addr < sampler.known_hi[i])
			return sampler.known_fp[i];
	return 0;
}

/* Whether ADDR lies in code loaded after start-up. */
static int in_known(uintptr_t addr)
{
	size_t n = __atomic_load_n(&sampler.nknown, __ATOMIC_ACQUIRE);

	for (size_t i = 0; i < n; i++)
		if (addr >= sampler.known_lo[i] && addr < sampler.known_hi[i])
			return 1;
	return 0;
}

/*
 * The stub holding PC when START, where PC's call frame information
 * begins, is a lazy .plt's PLT0: the linker describes the whole section
 * as one function, but perf names each stub ("memcmp@plt"), and so do the
 * reports, by the stub's start.  Else START.
 */
static uintptr_t plt_entry_or_start(uintptr_t start, uintptr_t pc)
{
	const uint8_t *p = (const uint8_t *)start;

	if (pc - start < PLT_ENTRY_SIZE || p[0] != PLT0_PUSH_0 || p[1] != PLT0_PUSH_1 ||
	    plt_stub_jump(p + 6, 11) != 0)
		return start;
	return start + ((pc - start) & ~(uintptr_t)(PLT_ENTRY_SIZE - 1));
}

/* Where the function holding PC begins when PC lies in code without
 * hooks that was loaded at start-up, else 0. */
static uintptr_t unhooked_function_at(uintptr_t pc)
{
	for (size_t i = 0; i < sampler.nunhooked; i++)
		if (pc >= sampler.unhooked[i].lo && pc < sampler.unhooked[i].hi) {
			uintptr_t start = eh_function_start(&sampler.unhooked[i].functions, pc);
			return start ? plt_entry_or_start(start, pc) : 0;
		}
	return 0;
}

/* Whether the code before ADDR, in the program's text, ends in a call
 * instruction: only then is a word found on the stack taken for a
 * return address. */
static int after_call(uintptr_t addr)
{
	return in_text(addr, CALL_BEFORE_BYTES) &&
	       code_ends_in_call((const uint8_t *)addr - CALL_BEFORE_BYTES);
}

extern char callscope_return_trampoline[] HIDDEN;

/*
 * Under -pg tracing a traced call's return address is the runtime's
 * trampoline (a patched function's, its own); the real one is on the shadow stack, in the frame whose
 * return slot is SLOT.  Returns it, or RET when it is not the trampoline.
 */
static uintptr_t real_return(const struct thread_state *t, uintptr_t slot, uintptr_t ret)
{
	if ((ret != (uintptr_t)callscope_return_trampoline && !patch_is_return_point(ret)) ||
	    !t->stack)
		return ret;
	for (uint32_t i = t->depth; i; i--)
		if (t->stack[i - 1].sp == slot)
			return t->stack[i - 1].ret;
	return ret;
}

/* Whether the SIZE bytes at ADDR lie inside the thread's stack.  ADDR may
 * be any word the program left in rbp: near the top of the address space
 * ADDR + SIZE wraps around, and must not pass for an address below the
 * stack's end. */
static int on_stack(const struct sampler_thread *s, uintptr_t addr, uintptr_t size)
{
	return addr >= s->stack_lo && addr <= s->stack_hi && s->stack_hi - addr >= size;
}

/*
 * The PLT stub at PC when a call has just reached it, else 0: PC on the
 * stub's jump through its GOT slot (or on the endbr64 before it), and the
 * word at SP the return address of a `call rel32` to the stub.  The
 * bytes before PC are read only within its 16-byte entry.
 */
static uintptr_t plt_call_landing(const struct sampler_thread *s, uintptr_t pc, uintptr_t sp)
{
	const size_t endbr64 = 4;
	uintptr_t stub = pc;
	int32_t rel;

	if (plt_stub_jump((const uint8_t *)pc, 11) < 0)
		return 0;
	if ((pc & (PLT_ENTRY_SIZE - 1)) == endbr64 &&
	    plt_stub_jump((const uint8_t *)pc - endbr64, 11) == (int)endbr64)
		stub = pc - endbr64;
	if (!on_stack(s, sp, sizeof(uintptr_t)))
		return 0;
	uintptr_t ret = *(const uintptr_t *)sp;
	if (!in_text(ret, 5) || *(const uint8_t *)(ret - 5) != 0xe8)
		return 0;
	__builtin_memcpy(&rel, (const void *)(ret - 4), sizeof(rel));
	return ret + (uintptr_t)(intptr_t)rel == stub ? stub : 0;
}

/* Where a frame-pointer walk ended. */
struct walk_end {
	int complete;		/* at a zero frame pointer: the thread's first frame */
	int boundary;		/* at a return into code without frame pointers */
	uintptr_t sp, bp;	/* then: the stack and frame pointers of that caller */
};

/*
 * Walks the frame-pointer chain from FP, filling RETS with return
 * addresses (innermost first).  Every frame must lie inside the thread's
 * stack, above the previous one and aligned, so a binary built without
 * frame pointers (whose rbp holds anything) stops the walk instead of
 * faulting.  With AT_BOUNDARY the walk stops at the first return into code
 * that keeps no frame pointers: its caller's registers, from which DWARF
 * unwinding goes on, are in *END.
 */
static size_t walk_frames(const struct thread_state *t, const struct sampler_thread *s,
			  uintptr_t fp, uintptr_t sp, uint64_t *rets, size_t max, int at_boundary,
			  struct walk_end *end)
{
	size_t n = 0;

	memset(end, 0, sizeof(*end));
	if (!s->stack_hi)
		return 0;
	/* A function that set up no frame (a leaf, or one caught before its
	 * prologue) still has its return address on top of the stack: the
	 * chain from FP would skip its caller. */
	if (on_stack(s, sp, 8) && !(sp & 7)) {
		uintptr_t top = *(const uintptr_t *)sp;
		if (after_call(top)) {
			rets[n++] = top;
			if (at_boundary && !in_frame_pointer_code(top)) {
				*end = (struct walk_end){ 0, 1, sp + 8, fp };
				return n;
			}
		}
	}
	while (fp >= sp && on_stack(s, fp, 16) && !(fp & 7)) {
		const uintptr_t *frame = (const uintptr_t *)fp;
		uintptr_t ret = real_return(t, fp + 8, frame[1]), next = frame[0];
		/* a frame pointer that is really a data register stops here */
		if (ret < 4096 || (sampler.ntext && !in_text(ret, 0) && !in_known(ret)))
			break;
		if (n == max)
			break;
		rets[n++] = ret;
		if (at_boundary && !in_frame_pointer_code(ret)) {
			*end = (struct walk_end){ 0, 1, fp + 16, next };
			break;
		}
		if (!next) {
			end->complete = 1;
			break;
		}
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}

/* The call frame information of the object loaded at start-up whose code
 * holds PC, or NULL (objects loaded later may be closed while a sample
 * reads them). */
static const struct eh_table *cfi_table_at(uintptr_t pc)
{
	long r = text_range_at(pc);

	return r >= 0 && sampler.text_has_cfi[r] ? &sampler.text_cfi[r] : NULL;
}

/*
 * Whether the frame whose registers are REGS is the thread's first
 * though no FDE says so: its stack pointer lies where the frames end
 * (within a frame's alignment of the stack the program started with,
 * above which lie its arguments and environment).  The loader's entry,
 * which runs the objects' constructors before it jumps to the program's,
 * has no call frame information: a sample in a constructor ends there.
 */
static int at_stack_end(const struct sampler_thread *s, const struct cfi_regs *regs)
{
	return (regs->known & (1u << CFI_RSP)) && s->frames_hi &&
	       regs->r[CFI_RSP] + STACK_END_SLACK >= s->frames_hi;
}

/* Where a walk by the call frame information ended. */
enum cfi_walk_end {
	CFI_WALK_FIRST_FRAME,	/* at the thread's first frame: the stack is whole */
	CFI_WALK_FULL,		/* at MAX frames */
	CFI_WALK_STOPPED,	/* at a frame it cannot step out of: *REGS are its own */
};

/*
 * Walks the stack from the frame whose registers are *REGS with the
 * objects' call frame information, appending the return addresses to
 * RETS[*N..MAX).  EXACT says the frame's PC is where it was interrupted,
 * not a return address (whose call is the byte before it).  A frame that
 * does not move the stack pointer up (but a signal frame's), or returns
 * outside loaded code, ends the walk: a smashed stack cannot make it go
 * round in circles or wander off.
 */
static enum cfi_walk_end walk_cfi(const struct thread_state *t, const struct sampler_thread *s,
				  struct cfi_regs *regs, int exact, uint64_t *rets, size_t *n,
				  size_t max)
{
	const struct cfi_stack stack = { s->stack_lo, s->stack_hi };
	struct eh_fde f;

	if (!s->stack_hi)
		return CFI_WALK_STOPPED;
	for (;;) {
		uintptr_t lookup = regs->r[CFI_RIP] - (exact ? 0 : 1);
		const struct eh_table *table = cfi_table_at(lookup);
		struct cfi_regs caller = *regs;
		enum cfi_step step = table && !eh_fde_find(table, lookup, &f)
					     ? cfi_step(&table->span, &f, lookup, &stack, &caller)
					     : CFI_STEP_STOP;
		if (step == CFI_STEP_FIRST_FRAME || (step == CFI_STEP_STOP && at_stack_end(s, regs)))
			return CFI_WALK_FIRST_FRAME;
		if (step == CFI_STEP_STOP)
			return CFI_WALK_STOPPED;
		uintptr_t sp = caller.r[CFI_RSP], ret = caller.r[CFI_RIP];
		if (!(caller.known & (1u << CFI_RSP)) || (!f.signal && sp <= regs->r[CFI_RSP]))
			return CFI_WALK_STOPPED;
		if (!f.signal)
			ret = real_return(t, sp - 8, ret);
		if (ret < 4096 || (sampler.ntext && !in_text(ret, 0) && !in_known(ret)))
			return CFI_WALK_STOPPED;
		if (*n == max)
			return CFI_WALK_FULL;
		rets[(*n)++] = ret;
		caller.r[CFI_RIP] = ret;
		*regs = caller;
		exact = f.signal;
	}
}

/* The interrupted frame's registers, all known. */
static void context_regs(const ucontext_t *uc, struct cfi_regs *regs)
{
	static const int greg[CFI_REGS] = {
		REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
		REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
	};

	for (int i = 0; i < CFI_REGS; i++)
		regs->r[i] = (uint64_t)uc->uc_mcontext.gregs[greg[i]];
	regs->known = (1u << CFI_REGS) - 1;
}

/* How many bytes of the stack from SP a sample copies for unwinding. */
static size_t copy_size(const struct sampler_thread *s, uintptr_t sp)
{
	if (!s->stack_hi || sp < s->stack_lo || sp >= s->frames_hi)
		return 0;
	size_t copy = s->frames_hi - sp < SAMPLING_COPY_MAX ? s->frames_hi - sp : SAMPLING_COPY_MAX;
	return copy & ~(size_t)7;
}

/*
 * The program's own action for the sampler's signal (see
 * sampler_sigaction()): signals that are not the sampler's (sent with
 * kill or sigqueue) are handed to it.
 */
static struct sigaction program_action;

static void forward_to_program(int sig, siginfo_t *info, void *context)
{
	const struct sigaction *a = &program_action;

	if (a->sa_flags & SA_SIGINFO) {
		a->sa_sigaction(sig, info, context);
	} else if (a->sa_handler != SIG_IGN && a->sa_handler != SIG_DFL) {
		a->sa_handler(sig);
	} else if (a->sa_handler == SIG_DFL && sig == SIGTRAP) {
		/* a breakpoint or raise(SIGTRAP) ends the program as it would
		 * have: the signal, blocked while this handler runs, comes
		 * back with the default action once it returns */
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		runtime_real_sigaction(SIGTRAP, &dfl, NULL);
		raise(SIGTRAP);
	}
}

#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
/* what the task-clock events give back in a SIGTRAP's si_perf_data */
#define SIGTRAP_DATA 0x63616c6c73636f70ull

/* Whether INFO is the overflow of this thread's task-clock event: a
 * SIGTRAP from a breakpoint or from kill() carries another code or data.
 * si_perf_data follows si_addr (Linux 5.13; glibc 2.36 has no name for it). */
static int is_task_clock_trap(const siginfo_t *info)
{
	uint64_t data;

	if (info->si_code != TRAP_PERF)
		return 0;
	__builtin_memcpy(&data, (const char *)&info->si_addr + sizeof(void *), sizeof(data));
	return data == SIGTRAP_DATA;
}

/* Whether INFO is the signal of one of the sampler's POSIX timers, which
 * carry the sampler's address as their value. */
static int is_own_timer(const siginfo_t *info)
{
	return info->si_code == SI_TIMER && info->si_value.sival_ptr == (void *)&sampler;
}

/* Starts (or, after an overflow under the event limit, restarts) a
 * task-clock event. */
static int enable_event(int fd)
{
	return sampler.sigtrap ? ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)
			       : ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
}

static uint64_t timespec_ns(struct timespec ts)
{
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct timespec ns_timespec(uint64_t ns)
{
	return (struct timespec){ (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
}

/* Wakes the threads waiting for the handover's state to change (on the
 * waker's thread too: no errno). */
static void handover_wake(void)
{
	raw_syscall6(SYS_futex, (long)&handover.state, FUTEX_WAKE_PRIVATE, INT_MAX, 0, 0, 0);
}

/* Sets the handover's state and tells the threads waiting for it. */
static void handover_set(int state)
{
	__atomic_store_n(&handover.state, state, __ATOMIC_RELEASE);
	handover_wake();
}

/* Waits up to NS for the handover's state to leave SEEN (or a signal);
 * on the waker's thread too: no errno. */
static void handover_wait(int seen, uint64_t ns)
{
	struct timespec left = ns_timespec(ns);

	raw_syscall6(SYS_futex, (long)&handover.state, FUTEX_WAIT_PRIVATE, seen, (long)&left, 0, 0);
}

static int open_task_clock(pid_t tid, int sigtrap, int with_kernel, int (*place)(int fd));

/* The calling thread's CPU time, the clock of its timer and its event. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0 ? timespec_ns(ts) : 0;
}

/*
 * In the waker's signal (or, with no waker, the timer's; see handover):
 * the main thread opens its own event, which takes over from the timer,
 * which stops.  The periods of CPU time since the timer started that its
 * signals did not weigh (all of them since it last signalled, if the
 * kernel stopped checking it) are owed by the sample of this signal:
 * returns that weight, 0 for no sample.  The event's first period ends
 * where the timer's would have, so that the CPU time around the switch is
 * sampled once, neither twice nor never.  The timer is deleted when the
 * thread stops (timer_delete is no function for a signal handler).
 */
static uint64_t take_event(struct sampler_thread *s)
{
	if (s->in_exec)
		return 0;	/* the timer samples on until the exec (see there) */
	errno = 0;	/* EAGAIN from the move alone (the handler restores errno) */
	int fd = open_task_clock((pid_t)gettid(), sampler.sigtrap, sampler.with_kernel,
				 rt_fd_above_limit_nowait);
	if (fd < 0 && errno == EAGAIN) {
		/* a move of a descriptor under way, perhaps this very
		 * thread's in a fork: the waker signals again */
		int ready = HANDOVER_READY;
		if (__atomic_compare_exchange_n(&handover.state, &ready, HANDOVER_AGAIN, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			handover_wake();
		return 0;
	}
	s->awaiting = 0;
	handover_set(HANDOVER_NONE);	/* the waker is closed */
	if (fd < 0)
		return 0;	/* the kernel refused it: the timer stays */
	struct itimerspec off = { { 0, 0 }, { 0, 0 } };
	timer_settime(s->timer, 0, &off, NULL);
	uint64_t now = thread_cpu_ns();
	uint64_t elapsed = (now > s->timer_start_ns ? now - s->timer_start_ns : 0) +
			   s->timer_first_short_ns;
	uint64_t periods = elapsed / sampler.period_ns;
	uint64_t next = sampler.period_ns - elapsed % sampler.period_ns;
	s->periods_seen = s->first_short_ns = 0;
	if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &next) == 0) {
		s->short_period = 1;
		s->first_short_ns = sampler.period_ns - next;
	}
	s->perf_id = rt_perf_id(fd);
	/* a SIGTRAP of the event may interrupt this handler (SA_NODEFER,
	 * patch/trap.c) once it is enabled: it finds it in place */
	s->perf_fd = fd;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	enable_event(fd);
	return periods > s->timer_weight ? periods - s->timer_weight : 0;
}

/* Whether INFO is the waker's signal: the end of its one period. */
static int is_handover_signal(const siginfo_t *info)
{
	if (sampler.sigtrap)
		return is_task_clock_trap(info);
	return info->si_code == POLL_HUP &&
	       info->si_fd == __atomic_load_n(&handover.waker_fd, __ATOMIC_ACQUIRE);
}

/* si_perf_flags follows si_perf_data and si_perf_type (Linux 5.18; glibc
 * 2.36 has no name for it): TRAP_PERF_FLAG_ASYNC when the thread had the
 * signal blocked as the event signalled. */
static int trap_waited_blocked(const siginfo_t *info)
{
	uint32_t flags;

	__builtin_memcpy(&flags, (const char *)&info->si_addr + sizeof(void *) + sizeof(uint64_t) +
				 sizeof(uint32_t), sizeof(flags));
	return flags & 1u;
}

/*
 * A SIGTRAP of the event that waited blocked stands for every period that
 * ended meanwhile: the kernel keeps one pending however many end.  The
 * runtime keeps its signal unblocked (see signal_masks_thread_start()),
 * but a mask set by a raw system call, or inside libc, still blocks it.
 * The event's count says how many periods passed, and those not signalled
 * are lost samples, so that the recording says so.  Counted for this
 * trap, which is signalled; returns the periods lost.
 */
static uint64_t blocked_periods(struct sampler_thread *s, const siginfo_t *info)
{
	uint64_t count;

	s->periods_seen++;
	if (!trap_waited_blocked(info) || rt_perf_id(s->perf_fd) != s->perf_id ||
	    raw_syscall3(SYS_read, s->perf_fd, (long)&count, sizeof(count)) != sizeof(count))
		return 0;
	uint64_t passed = (count + s->first_short_ns) / sampler.period_ns;
	if (passed <= s->periods_seen)
		return 0;
	uint64_t lost = passed - s->periods_seen;
	s->periods_seen = passed;
	return lost;
}

/* After the event's first, shortened period: the full period from now on. */
static void restore_period(struct sampler_thread *s)
{
	if (!s->short_period)
		return;
	s->short_period = 0;
	uint64_t period = sampler.period_ns;
	ioctl(s->perf_fd, PERF_EVENT_IOC_PERIOD, &period);
}

/* Whether PC lies in the runtime's own code (find_self()). */
static int in_own_code(uintptr_t pc)
{
	return pc - sampler.self_lo < sampler.self_hi - sampler.self_lo;
}

static void on_sample(int sig, siginfo_t *info, void *context)
{
	struct thread_state *t = trace_current();
	struct sampler_thread *s = &sampler_tls;
	const ucontext_t *uc = context;
	uint64_t rets[SAMPLING_STACK_MAX];
	int saved = errno, truncated = 0;

	(void)sig;
	uint64_t weight = 1;
	int by_timer = is_own_timer(info);
	if (!s->armed) {
		/* a SIGTRAP of the thread's event, left pending while the
		 * thread blocked it, or the waker's, may come after sampling
		 * stopped (with SIGTRAP, the waker's signal is any task-clock
		 * trap: is_handover_signal()) */
		if (!by_timer && !is_handover_signal(info))
			forward_to_program(sig, info, context);
		goto out;
	}
	if (by_timer) {
		/* one the timer queued before the event took over: its
		 * periods were weighed by the event's first sample */
		if (s->perf_fd >= 0)
			goto out;
		weight += (uint64_t)(info->si_overrun > 0 ? info->si_overrun : 0);
		if (s->awaiting) {
			s->timer_weight += weight;
			if (__atomic_load_n(&handover.state, __ATOMIC_ACQUIRE) == HANDOVER_ALONE)
				weight += take_event(s);
		}
	} else if (s->awaiting && is_handover_signal(info)) {
		/* the CPU time the timer did not sample, as its own */
		weight = take_event(s);
		by_timer = 1;
		if (!weight)
			goto out;
	} else if (s->perf_fd >= 0 && sampler.sigtrap) {
		if (!is_task_clock_trap(info)) {
			forward_to_program(sig, info, context);
			goto out;
		}
		/* the event runs on: nothing to re-arm */
		restore_period(s);
		s->missed += blocked_periods(s, info);
	} else if (s->perf_fd >= 0 && info->si_code == POLL_HUP && info->si_fd == s->perf_fd) {
		/* the event stopped itself after one period: start the next,
		 * unless an exec is on its way (sampler_exec_begin()) */
		restore_period(s);
		if (!s->in_exec)
			ioctl(s->perf_fd, PERF_EVENT_IOC_REFRESH, 1);
	} else {
		forward_to_program(sig, info, context);
		goto out;
	}
	if (t->nodes && t->status == THREAD_RECORDING) {
		/* --time-by=samples: the sample times the thread's path */
		uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
		int in_runtime = t->guard || in_own_code(pc) || patch_is_own_code(pc);
		/* what the samples measured, for the report's header: the
		 * timer at the tick counts the kernel's time, the event where
		 * it was allowed to (a hook's read-modify-write of the flags
		 * cannot be under way: the thread is in no hook) */
		if (!in_runtime && sampler.wall)
			t->hdr->flags |= THREAD_SAMPLES_WALL;
		else if (!in_runtime)
			t->hdr->flags |= (by_timer ? THREAD_SAMPLES_TICK : THREAD_SAMPLES_EVENT) |
					 (by_timer || sampler.with_kernel ? THREAD_SAMPLES_SYSTEM
									  : THREAD_SAMPLES_USER_ONLY);
		uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
		uintptr_t unhooked = in_runtime ? 0 : unhooked_function_at(pc);
		uintptr_t landed = in_runtime || unhooked ? 0 : plt_call_landing(s, pc, sp);
		sampled_count_sample(t, pc, sp, s->stack_lo, s->stack_hi, in_runtime, unhooked, landed,
				     weight + s->missed);
		s->missed = 0;
		goto out;
	}
	if (sampler.hooks_measured && t->status == THREAD_RECORDING) {
		uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
		hook_samples_note(t, pc, sampler.self_lo, sampler.self_hi, weight);
		/* a patched entry's trampoline and a library call's stub are
		 * the hooks' cost, counted just now; in the stream they would
		 * be time in no object at all */
		if (patch_is_own_code(pc) || libcall_in_stubs(pc))
			goto out;
		/* so is, beside the stacks --sample takes, a sample in the
		 * hooks' own code or while they run, which would otherwise be
		 * time in no object or a lost sample: the program's shares
		 * are of the rest, as perf's are of a run without hooks */
		if (!sampler.settings.background && (t->guard || in_own_code(pc)))
			goto out;
	}
	if (t->status != THREAD_RECORDING || t->guard || !t->hdr) {
		s->missed += weight;
		goto out;
	}
	/* A program without hooks learns of a stop, start or reset only
	 * here.  A sample while capture is off is not taken, not lost. */
	guard_take(t, 1);
	trace_check_capture(t);
	guard_restore(t, 0);
	if (!t->capturing)
		goto out;
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
	if (sampler.settings.only[0] && !in_only(pc))
		goto out;	/* --only: not an object asked for; not a loss */
	guard_take(t, 1);
	/* the stack's method: the frames RETS[0..N) from the frame
	 * pointers, then (DWARF methods) COPY bytes from COPY_SP unwound
	 * offline from the registers COPY_SP and COPY_BP */
	size_t n = 0, copy = 0;
	uintptr_t copy_sp = sp, copy_bp = fp;
	unsigned method = s->stack_hi ? SAMPLE_METHOD_FP : SAMPLE_METHOD_PC;
	uint64_t cfi = 0;	/* SAMPLE_CFI when the call frame information found frames */
	struct walk_end end;
	if (sampler.settings.background) {
		/* beside a trace: where the time goes is all it asks */
		method = SAMPLE_METHOD_PC;
		truncated = 0;
	} else switch (sampler.settings.stack) {
	case SAMPLING_STACK_FP:
		n = walk_frames(t, s, fp, sp, rets, SAMPLING_STACK_MAX, 0, &end);
		truncated = s->stack_hi && !end.complete;
		break;
	case SAMPLING_STACK_AUTO: {
		/* frame pointers where the code keeps them, then the call
		 * frame information; a copy from where neither goes on */
		struct cfi_regs regs;
		int exact = 1;
		context_regs(uc, &regs);
		if (in_frame_pointer_code(pc)) {
			n = walk_frames(t, s, fp, sp, rets, SAMPLING_STACK_MAX, 1, &end);
			if (end.complete)
				break;
			if (end.boundary && n < SAMPLING_STACK_MAX) {
				regs.r[CFI_RSP] = end.sp;
				regs.r[CFI_RBP] = end.bp;
				regs.r[CFI_RIP] = rets[n - 1];
				regs.known = (1u << CFI_RSP) | (1u << CFI_RBP) | (1u << CFI_RIP);
				exact = 0;
			} else {
				n = 0;	/* a chain that led nowhere: unwind it all instead */
			}
		}
		size_t walked = n;
		enum cfi_walk_end how = walk_cfi(t, s, &regs, exact, rets, &n, SAMPLING_STACK_MAX);
		if (how != CFI_WALK_STOPPED || n > walked)
			cfi = SAMPLE_CFI;
		if (how == CFI_WALK_FIRST_FRAME)
			break;
		if (how == CFI_WALK_FULL) {
			truncated = 1;
			break;
		}
		if (n) {
			method = SAMPLE_METHOD_FP_DWARF;
			copy_sp = regs.r[CFI_RSP];
			copy_bp = regs.known & (1u << CFI_RBP) ? regs.r[CFI_RBP] : 0;
			copy = copy_size(s, copy_sp);
			break;
		}
		cfi = 0;
	}
		/* fall through */
	case SAMPLING_STACK_DWARF:
		n = 0;
		copy = copy_size(s, sp);
		method = copy ? SAMPLE_METHOD_DWARF : SAMPLE_METHOD_PC;
		break;
	}
	if (method == SAMPLE_METHOD_FP_DWARF && !copy)
		truncated = 1;	/* the caller's registers lie off the stack */
	size_t need = 8 * 10 + n * 10 + 3 * 10 + copy;
	if ((size_t)(t->end - t->cur) < need &&
	    (t->ring_bytes || t->truncated || thread_buffer_grow(t) != 0)) {
		s->missed += weight;
		guard_restore(t, 0);
		goto out;
	}
	/* the thread was in no hook (its guard was free): the waits since
	 * the last one are taken here, or this sample's time would run ahead
	 * of the stamps after it */
	uint64_t now = thread_clock(t);
	uint64_t delta = now > t->last_time ? now - t->last_time : 0;
	uint64_t flags = (sampler.wall	       ? SAMPLE_WALL
			  : by_timer	       ? SAMPLE_TICK_TIMER
			  : sampler.with_kernel ? SAMPLE_SYSTEM_TIME
						: 0) |
			 (truncated ? SAMPLE_TRUNCATED : 0) |
			 (sampler.settings.background ? SAMPLE_BACKGROUND : 0) | cfi |
			 ((uint64_t)method << SAMPLE_METHOD_SHIFT);
	if (now > t->last_time)
		t->last_time = now;
	t->cur = stream_put_varint(t->cur, ((uint64_t)STREAM_SAMPLE << 2) | STREAM_SPECIAL);
	t->cur = stream_put_varint(t->cur, delta);
	t->cur = stream_put_varint(t->cur, flags);
	t->cur = stream_put_varint(t->cur, weight);
	t->cur = stream_put_varint(t->cur, s->missed);
	t->cur = stream_put_varint(t->cur, pc);
	t->cur = stream_put_varint(t->cur, n);
	for (size_t i = 0; i < n; i++)
		t->cur = stream_put_varint(t->cur, rets[i]);
	if (method == SAMPLE_METHOD_DWARF || method == SAMPLE_METHOD_FP_DWARF) {
		t->cur = stream_put_varint(t->cur, copy_sp);
		t->cur = stream_put_varint(t->cur, copy_bp);
		t->cur = stream_put_varint(t->cur, copy);
		/* word by word: no vector registers in the runtime */
		const uint64_t *from = (const uint64_t *)copy_sp;
		uint8_t *start = t->cur;
		for (size_t i = 0; i < copy / 8; i++, t->cur += 8)
			__builtin_memcpy(t->cur, &from[i], 8);
		/* the unwinder must see the real return addresses, not the
		 * trampoline that -pg tracing put in their slots */
		for (uint32_t i = t->stack ? t->depth : 0; i; i--) {
			const struct shadow_frame *f = &t->stack[i - 1];
			if (f->sp < copy_sp)
				continue;
			if (f->sp - copy_sp + 8 > copy)
				break;
			if (f->ret)
				__builtin_memcpy(start + (f->sp - copy_sp), &f->ret, 8);
		}
	}
	thread_commit(t);
	s->missed = 0;
	guard_restore(t, 0);
out:
	errno = saved;
}

/* The stack pointer the program started with (the loader's): the main
 * thread's first frame lies just below it, its arguments and environment
 * above. */
extern void *__libc_stack_end __attribute__((weak));

/*
 * The main thread's stack without pthread_getattr_np(), which reads
 * /proc/self/maps for it (0.1 ms of a launch).  Its frames all lie below
 * START (__libc_stack_end), and everything from there up to the next page
 * boundary is mapped (the arguments, the environment, the auxiliary
 * vector), so that boundary bounds what a walk may read; the low end is
 * where the stack may grow to, its size limit below, as glibc takes it.
 * -1 when the limit is unknown or infinite, or the calling thread runs
 * elsewhere: then ask glibc.
 */
static int main_stack_bounds(struct sampler_thread *s, uintptr_t start)
{
	struct rlimit rl;
	uintptr_t page = (uintptr_t)getauxval(AT_PAGESZ);

	if (!start || !page || getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	uintptr_t hi = (start + 64 + page - 1) & ~(page - 1);
	uintptr_t here = (uintptr_t)&rl;
	/* the thread runs on that stack (after a fork by another thread, the
	 * child's only thread runs on its own) */
	if (rl.rlim_cur >= hi || here >= start || here < hi - (uintptr_t)rl.rlim_cur)
		return -1;
	s->stack_hi = hi;
	s->stack_lo = hi - (uintptr_t)rl.rlim_cur;
	s->frames_hi = start + 64;
	return 0;
}

/* The calling thread's stack bounds, read outside any signal handler. */
static void read_stack_bounds(struct sampler_thread *s)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;
	uintptr_t start = &__libc_stack_end ? (uintptr_t)__libc_stack_end : 0;
	int main_thread = gettid() == getpid();

	s->stack_lo = s->stack_hi = s->frames_hi = 0;
	if (main_thread && main_stack_bounds(s, start) == 0)
		return;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return;
	if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr && size) {
		s->stack_lo = (uintptr_t)addr;
		s->stack_hi = (uintptr_t)addr + size;
	}
	pthread_attr_destroy(&attr);
	/* a stack copy of the main thread stops above _start's frame rather
	 * than carry the environment's kilobytes with every sample */
	s->frames_hi = s->stack_hi;
	if (main_thread && start > s->stack_lo && start + 64 < s->stack_hi)
		s->frames_hi = start + 64;
}

/* The attributes of a task-clock event (see open_task_clock()); with
 * WITH_KERNEL it counts the thread's time in the kernel too. */
static void task_clock_attr(struct perf_event_attr *attr, int sigtrap, int with_kernel)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = PERF_COUNT_SW_TASK_CLOCK;
	attr->sample_period = sampler.period_ns;
	attr->disabled = 1;
	/* a period ending inside execve() would signal the new image, whose
	 * SIGTRAP is still the default and kills it: the exec stand-ins stop
	 * the thread's event first (sampler_exec_begin()) */
	attr->exclude_kernel = !with_kernel;
	attr->exclude_hv = 1;
	if (sigtrap) {
		attr->sigtrap = 1;
		attr->remove_on_exec = 1;	/* the kernel demands it with sigtrap */
		attr->sig_data = SIGTRAP_DATA;
	}
}

/*
 * CPU time by a perf_event task-clock counter that overflows every period:
 * the kernel drives it by a high-resolution timer while the thread runs,
 * so samples fall where the time goes even above the scheduler tick,
 * which POSIX CPU-time timers cannot do.
 *
 * With SIGTRAP (Linux 5.13 on) the event runs on and the kernel sends the
 * overflowing thread a SIGTRAP on its way back to user space.  Otherwise
 * the event disables itself after each overflow (event limit 1) and
 * signals the thread through the fd's owner; the handler re-arms it.  The
 * second way costs a sample some 15 us more in a virtual machine (the
 * disabling's interrupt work, the re-arming ioctl and timer), which at
 * 999 Hz is 1.5 % of the program's time; see bench/RESULTS-sampling.md.
 * TID's event (the calling thread's, or the main thread's opened for it,
 * see handover), its descriptor given the number PLACE gives it; with
 * WITH_KERNEL it counts the thread's time in the kernel too.  Returns
 * the fd, or -1 when perf events are not allowed here
 * (perf_event_paranoid, seccomp): the POSIX timer is used then.  Its own
 * system calls write no errno, as the waker's thread opens one (see
 * handover): after -1, errno is PLACE's, or as it was.
 */
static int open_task_clock(pid_t tid, int sigtrap, int with_kernel, int (*place)(int fd))
{
	struct perf_event_attr attr;
	struct f_owner_ex owner = { F_OWNER_TID, tid };

	task_clock_attr(&attr, sigtrap, with_kernel);
	long opened = raw_syscall6(SYS_perf_event_open, (long)&attr, tid, -1, -1,
				   PERF_FLAG_FD_CLOEXEC, 0);
	if (raw_failed(opened))
		return -1;
	/* placed before O_ASYNC: the signals name the number it has then */
	int fd = place((int)opened);
	if (fd < 0 || sigtrap)
		return fd < 0 ? -1 : fd;
	if (raw_failed(raw_syscall3(SYS_fcntl, fd, F_SETFL, O_ASYNC | O_NONBLOCK)) ||
	    raw_failed(raw_syscall3(SYS_fcntl, fd, F_SETSIG, sampler.signo)) ||
	    raw_failed(raw_syscall3(SYS_fcntl, fd, F_SETOWN_EX, (long)&owner))) {
		raw_syscall3(SYS_close, fd, 0, 0);
		return -1;
	}
	return fd;
}

/*
 * What task-clock events this kernel offers, asked without opening one
 * (which may wait, see handover): an event of a PMU type that does not exist
 * fails before the kernel would wait, with ENOENT once the attributes
 * passed, EINVAL where `sigtrap` is unknown (before Linux 5.13), EACCES or
 * EPERM where perf events are not allowed (perf_event_paranoid, seccomp).
 */
enum event_support { EVENTS_NONE, EVENTS_BY_OWNER, EVENTS_SIGTRAP };

/*
 * On valgrind the program runs on a synthetic CPU while the kernel sees
 * valgrind's own threads: a task-clock event's SIGTRAP reaches valgrind as
 * a fault in its own code, which it does not survive ("Valgrind received a
 * signal 5 (SIGTRAP) - exiting").  Its POSIX timers are passed on to the
 * program as ordinary signals, so the timer samples there.  The client
 * request is a no-op sequence of instructions on a real CPU (valgrind.h).
 */
static int on_valgrind(void)
{
	if (!RUNNING_ON_VALGRIND)
		return 0;
	rt_warn("running on valgrind, which cannot take perf events' signals; "
		"sampling by the POSIX CPU-time timer (as --sample-source=timer)", "");
	return 1;
}

static enum event_support probe_attr(int with_kernel)
{
	struct perf_event_attr attr;

	task_clock_attr(&attr, 1, with_kernel);
	attr.type = 0x7fffffff;	/* no such PMU */
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return EVENTS_SIGTRAP;
	}
	switch (errno) {
	case EINVAL:
	case E2BIG:
		return EVENTS_BY_OWNER;
	case EACCES:
	case EPERM:
	case ENOSYS:
		return EVENTS_NONE;
	default:
		return EVENTS_SIGTRAP;
	}
}

/* The events offered, counting the kernel's time on the thread's behalf
 * where perf_event_paranoid allows it (below 2, or CAP_PERFMON; the kernel
 * checks that before it looks for the PMU), else user time alone. */
static enum event_support probe_events(void)
{
	if (on_valgrind())
		return EVENTS_NONE;
	enum event_support events = probe_attr(1);
	sampler.with_kernel = events != EVENTS_NONE;
	return sampler.with_kernel ? events : probe_attr(0);
}

/*
 * How long a thread's first period is: uniform in (0, period].  With a
 * full first period, a process or thread that runs for less than one
 * period once sampling starts is never sampled: a build's shells,
 * compiler drivers and small tools, a fraction of a millisecond each,
 * would show no time at all however many of them ran.  Started at a random
 * phase, every thread is sampled once per period of its CPU time on
 * average, however short it is.  The TSC and the thread id, mixed by
 * splitmix64's finalizer, differ between threads started together.
 */
static uint64_t first_period_ns(void)
{
	uint64_t x = clock_tsc() ^ ((uint64_t)gettid() << 32);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return 1 + x % sampler.period_ns;
}

/* Arms the calling thread's task-clock event FD; 0, or -1 (FD closed). */
static int arm_event(struct sampler_thread *s, int fd)
{
	s->perf_fd = fd;
	s->perf_id = rt_perf_id(fd);
	s->periods_seen = s->first_short_ns = 0;
	uint64_t first = first_period_ns();
	if (first < sampler.period_ns && ioctl(fd, PERF_EVENT_IOC_PERIOD, &first) == 0) {
		s->short_period = 1;	/* restore_period() at its signal */
		s->first_short_ns = sampler.period_ns - first;
	}
	s->armed = 1;
	pthread_setspecific(sampler_key, s);
	if (enable_event(fd) == 0)
		return 0;
	s->armed = 0;
	s->perf_fd = -1;
	close(fd);
	return -1;
}

/* Arms a POSIX timer signalling the calling thread every period of its
 * CPU time (of the wall clock with --sample-clock=wall), the first after
 * FIRST_NS (see first_period_ns()); 0, or -1. */
static int arm_timer(struct sampler_thread *s, uint64_t first_ns)
{
	struct sigevent sev;
	struct itimerspec its;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = sampler.signo;
	sev.sigev_value.sival_ptr = &sampler;	/* see is_own_timer() */
	sev._sigev_un._tid = (pid_t)gettid();
	if (timer_create(sampler.wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &sev,
			 &s->timer) != 0)
		return -1;
	its.it_interval = ns_timespec(sampler.period_ns);
	its.it_value = ns_timespec(first_ns);
	s->has_timer = 1;
	s->perf_fd = -1;
	s->armed = 1;
	pthread_setspecific(sampler_key, s);
	if (timer_settime(s->timer, 0, &its, NULL) == 0)
		return 0;
	s->armed = 0;
	s->has_timer = 0;
	timer_delete(s->timer);
	return -1;
}

static void warn_not_sampled(void)
{
	rt_warn("cannot create the sampling timer; this thread is not sampled", strerror(errno));
}

/* Whether the calling thread may start sampling now; then its bounds are
 * read, and the signal unblocked (BLOCKED: its creator's view of its mask,
 * see signal_masks_thread_start()). */
static int thread_starting(struct sampler_thread *s, uint64_t blocked)
{
	if (!sampler.on || s->armed || !runtime_thread_ready(trace_current()))
		return 0;
	signal_masks_thread_start(blocked);
	read_stack_bounds(s);
	s->missed = 0;
	s->short_period = 0;
	return 1;
}

/* A thread that starts while the waker is being opened waits for it
 * rather than in the kernel, where its event's number would be reserved in
 * the program's table meanwhile (see handover). */
static void wait_for_waker(void)
{
	uint64_t start = clock_mono_ns();

	for (;;) {
		uint64_t waited = clock_mono_ns() - start;
		if (__atomic_load_n(&handover.state, __ATOMIC_ACQUIRE) != HANDOVER_OPENING ||
		    waited >= HANDOVER_OPENING_WAIT_NS)
			return;
		handover_wait(HANDOVER_OPENING, HANDOVER_OPENING_WAIT_NS - waited);
	}
}

/* Starts sampling the calling thread: its buffer, its bounds, its event
 * or else its timer. */
static void sampler_thread_start(uint64_t blocked)
{
	struct sampler_thread *s = &sampler_tls;

	if (!thread_starting(s, blocked))
		return;
	int fd = -1;
	if (sampler.events) {
		wait_for_waker();
		fd = open_task_clock((pid_t)gettid(), sampler.sigtrap, sampler.with_kernel,
				     rt_fd_above_limit);
	}
	if (fd >= 0 && arm_event(s, fd) == 0)
		return;
	if (arm_timer(s, first_period_ns()) != 0)
		warn_not_sampled();
}

/* The waker's descriptor: in its thread's own table, where the program
 * has no number to lose. */
static int keep_number(int fd)
{
	return fd;
}

/* The thread of the runtime's own that opens the waker and keeps it open
 * until the main thread has taken over, or stopped (see handover).  glibc
 * does not know of it: raw system calls only (own_thread.c). */
static int warm_and_wake(void *arg)
{
	int fd = -1, opening = HANDOVER_OPENING;

	(void)arg;
	/* user time alone: the main thread cannot stop this event before
	 * an exec, and one period's length does not matter */
	if (runtime_thread_own_descriptors() == 0)
		fd = open_task_clock(handover.tid, sampler.sigtrap, 0, keep_number);
	uint64_t period = HANDOVER_WAKER_PERIOD_NS;
	if (fd >= 0 && raw_failed(raw_syscall3(SYS_ioctl, fd, PERF_EVENT_IOC_PERIOD, (long)&period))) {
		raw_syscall3(SYS_close, fd, 0, 0);
		fd = -1;
	}
	__atomic_store_n(&handover.waker_fd, fd, __ATOMIC_RELEASE);
	if (!__atomic_compare_exchange_n(&handover.state, &opening,
					 fd >= 0 ? HANDOVER_READY : HANDOVER_ALONE, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		if (fd >= 0)	/* the main thread stopped sampling meanwhile */
			raw_syscall3(SYS_close, fd, 0, 0);
		return 0;
	}
	handover_wake();	/* threads started meanwhile open their events now */
	if (fd < 0)
		return 0;
	uint64_t start = clock_mono_ns();
	raw_syscall3(SYS_ioctl, fd, PERF_EVENT_IOC_REFRESH, 1);
	for (;;) {
		int state = __atomic_load_n(&handover.state, __ATOMIC_ACQUIRE);
		if (state == HANDOVER_AGAIN) {
			if (__atomic_compare_exchange_n(&handover.state, &state, HANDOVER_READY, 0,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				raw_syscall3(SYS_ioctl, fd, PERF_EVENT_IOC_REFRESH, 1);
			continue;
		}
		if (state != HANDOVER_READY)
			break;
		uint64_t waited = clock_mono_ns() - start;
		if (waited < HANDOVER_WAKER_WAIT_NS) {
			handover_wait(HANDOVER_READY, HANDOVER_WAKER_WAIT_NS - waited);
			continue;
		}
		/* the main thread has not run the waker's period: the timer's
		 * next signal takes over */
		if (__atomic_compare_exchange_n(&handover.state, &state, HANDOVER_ALONE, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
	}
	raw_syscall3(SYS_close, fd, 0, 0);
	return 0;
}

/*
 * Starts sampling the main thread at once with the timer while another
 * thread opens the waker, whose signal then opens its event (see
 * handover).  Threads started meanwhile wait for the waker; those started
 * later find the kernel's wait over.
 */
static void start_main_thread(void)
{
	struct sampler_thread *s = &sampler_tls;

	if (!sampler.events) {
		sampler_thread_start(0);
		return;
	}
	if (!thread_starting(s, 0))
		return;
	handover.tid = (pid_t)gettid();
	handover.state = HANDOVER_OPENING;
	s->awaiting = 1;
	uint64_t first = first_period_ns();
	s->timer_start_ns = thread_cpu_ns();	/* before the timer's start: see take_event() */
	s->timer_first_short_ns = sampler.period_ns - first;
	s->timer_weight = 0;
	if (arm_timer(s, first) != 0) {
		/* no timer to sample meanwhile: wait for the event here */
		s->awaiting = 0;
		handover.state = HANDOVER_NONE;
		int fd = open_task_clock(handover.tid, sampler.sigtrap, sampler.with_kernel,
					 rt_fd_above_limit);
		if (fd < 0 || arm_event(s, fd) != 0)
			warn_not_sampled();
		return;
	}
	static struct unseen_stack waker_stack;
	if (runtime_thread_spawn_unseen(warm_and_wake, NULL, &waker_stack) != 0)
		handover.state = HANDOVER_ALONE;
}

static void sampler_thread_stop(void *arg)
{
	struct sampler_thread *s = arg ? arg : &sampler_tls;

	if (!s->armed)
		return;
	s->armed = 0;
	if (s->awaiting) {
		/* the waker is not wanted any more: its thread closes it */
		s->awaiting = 0;
		handover_set(HANDOVER_NONE);
	}
	/* not if the program closed it and has a descriptor of its own
	 * under that number now */
	if (s->perf_fd >= 0 && rt_perf_id(s->perf_fd) == s->perf_id) {
		ioctl(s->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
		close(s->perf_fd);
	}
	s->perf_fd = -1;
	if (s->has_timer) {
		timer_delete(s->timer);
		s->has_timer = 0;
	}
}

/* The process is ending in the calling thread (runtime_process_exiting()):
 * from here it runs the runtime's work, measuring the hooks again and
 * writing the end, which a sample would charge to the program's calls
 * still on its stack.  A signal already on its way finds the thread
 * disarmed and is dropped (on_sample()). */
HIDDEN void sampler_process_exiting(void)
{
	if (sampler.on)
		sampler_thread_stop(NULL);
}

/* The runtime's pthread_create: the new thread starts sampling first,
 * and the program's first thread brings the control socket's (control.c
 * says why it waits for it). */
struct start_args {
	void *(*fn)(void *);
	void *arg;
	uint64_t blocked;	/* signal_masks_program_blocked() of the creator */
};

static void *sampled_start(void *p)
{
	struct start_args a = *(struct start_args *)p;

	free(p);
	sampler_thread_start(a.blocked);
	void *ret = a.fn(a.arg);
	sampler_thread_stop(NULL);
	return ret;
}

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
				 void *);

EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			  void *(*fn)(void *), void *arg)
{
	static pthread_create_fn real;

	if (!real) {
		real = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
		if (!real)
			return EAGAIN;
	}
	struct start_args *a = sampler.on ? malloc(sizeof(*a)) : NULL;
	int rc;
	if (a) {
		a->fn = fn;
		a->arg = arg;
		a->blocked = signal_masks_program_blocked();
		rc = real(thread, attr, sampled_start, a);
		if (rc != 0)
			free(a);
	} else {
		rc = real(thread, attr, fn, arg);
	}
	if (rc == 0) {
		int saved = errno;
		control_program_threaded();
		errno = saved;
	}
	return rc;
}

/* --only: the executable segments of the objects named. */
static int only_matches(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *p = sampler.settings.only;

	base = base ? base + 1 : path;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len && strlen(base) >= len && !strncmp(base, p, len) &&
		    (base[len] == '\0' || base[len] == '.' || base[len] == '-'))
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Whether the stack walk may look at frame pointers in INFO's code. */
static int object_frame_pointers(const struct dl_phdr_info *info)
{
	return sampler.settings.stack == SAMPLING_STACK_AUTO && frame_pointers_kept(info);
}

/*
 * --time-by=samples: the executable segments of INFO's object, when it is
 * not the runtime and has no hooks, with the search table of its call
 * frame information, whose FDEs say where each function begins.  Objects
 * loaded later are left out: one may be closed while a sample reads it.
 */
static void collect_unhooked(const struct dl_phdr_info *info)
{
	struct eh_table functions;

	if (!runtime_config.contract.time_by_samples || libcall_object_hooked(info) ||
	    eh_table_find(info, &functions))
		return;
	for (int i = 0; i < info->dlpi_phnum && sampler.nunhooked < UNHOOKED_MAX; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || lo == sampler.self_lo)
			continue;
		sampler.unhooked[sampler.nunhooked].lo = lo;
		sampler.unhooked[sampler.nunhooked].hi = lo + ph->p_memsz;
		sampler.unhooked[sampler.nunhooked].functions = functions;
		sampler.nunhooked++;
	}
}

static int collect_text(struct dl_phdr_info *info, size_t size, void *data)
{
	int fp = -1, has_cfi = 0;
	struct eh_table cfi;

	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum && sampler.ntext < TEXT_RANGES_MAX; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (fp < 0) {
			fp = object_frame_pointers(info);
			has_cfi = sampler.settings.stack == SAMPLING_STACK_AUTO &&
				  eh_table_find(info, &cfi) == 0;
		}
		sampler.text_lo[sampler.ntext] = info->dlpi_addr + ph->p_vaddr;
		sampler.text_hi[sampler.ntext] = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		sampler.text_fp[sampler.ntext] = (uint8_t)fp;
		sampler.text_has_cfi[sampler.ntext] = (uint8_t)has_cfi;
		if (has_cfi)
			sampler.text_cfi[sampler.ntext] = cfi;
		sampler.ntext++;
	}
	collect_unhooked(info);
	return 0;
}

/* The executable segment of the object holding this code: the runtime. */
static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t here = (uintptr_t)data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || here < lo ||
		    here >= lo + ph->p_memsz)
			continue;
		sampler.self_lo = lo;
		sampler.self_hi = lo + ph->p_memsz;
		return 1;
	}
	return 0;
}

static int collect_only(struct dl_phdr_info *info, size_t size, void *data)
{
	int *first = data;
	const char *path = info->dlpi_name;
	char self[256];

	(void)size;
	if (*first) {
		/* the main program has no name here */
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[n > 0 ? n : 0] = '\0';
		path = self;
		*first = 0;
	}
	if (!path || !*path || !only_matches(path))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && sampler.nranges < ONLY_RANGES_MAX; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		sampler.lo[sampler.nranges] = info->dlpi_addr + ph->p_vaddr;
		sampler.hi[sampler.nranges] = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		sampler.nranges++;
	}
	return 0;
}

/* Appends [LO, HI) to a table of up to TEXT_RANGES_MAX or ONLY_RANGES_MAX
 * entries that signal handlers read: entry first, then the count.  FLAGS,
 * when not NULL, is the table's per-entry flag, set to FLAG. */
static void publish_range(uintptr_t *los, uintptr_t *his, uint8_t *flags, uint8_t flag,
			  size_t *n, size_t max, uintptr_t lo, uintptr_t hi)
{
	for (size_t i = 0; i < *n; i++)
		if (los[i] == lo)
			return;
	if (*n >= max)
		return;
	los[*n] = lo;
	his[*n] = hi;
	if (flags)
		flags[*n] = flag;
	__atomic_store_n(n, *n + 1, __ATOMIC_RELEASE);
}

static int collect_loaded(struct dl_phdr_info *info, size_t size, void *data)
{
	int fp = -1;

	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		if (in_text(lo, 0))
			continue;	/* loaded at start-up */
		if (fp < 0)
			fp = object_frame_pointers(info);
		publish_range(sampler.known_lo, sampler.known_hi, sampler.known_fp, (uint8_t)fp,
			      &sampler.nknown, TEXT_RANGES_MAX, lo, hi);
		if (sampler.settings.only[0] && info->dlpi_name && *info->dlpi_name &&
		    only_matches(info->dlpi_name))
			publish_range(sampler.lo, sampler.hi, NULL, 0, &sampler.nranges,
				      ONLY_RANGES_MAX, lo, hi);
	}
	return 0;
}

void sampler_objects_loaded(void)
{
	if (sampler.on)
		dl_iterate_phdr(collect_loaded, NULL);
}

/* A real-time signal nobody handles yet, from the top: programs that use
 * real-time signals tend to take them from SIGRTMIN up. */
static int pick_signal(void)
{
	for (int sig = SIGRTMAX; sig > SIGRTMIN + 2; sig--) {
		struct sigaction old;
		if (runtime_real_sigaction(sig, NULL, &old) != 0)
			continue;
		if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			return sig;
	}
	return 0;
}

static void after_fork_child(void)
{
	struct sampler_thread *s = &sampler_tls;

	/* the parent's waker, and its thread, are the parent's */
	handover.state = HANDOVER_NONE;
	s->awaiting = 0;
	/* the parent's timer is not ours (timers are not inherited); its
	 * event fd, copied, would count the parent's thread: close it */
	if (s->armed && s->perf_fd >= 0 && rt_perf_id(s->perf_fd) == s->perf_id)
		close(s->perf_fd);
	s->perf_fd = -1;
	s->has_timer = 0;
	s->armed = 0;
	sampler_thread_start(0);
}

/*
 * Before an exec (exec.c): a task-clock event that counts the kernel's
 * time can end a period inside execve(), and its signal then reaches the
 * new image at its first instruction, before any handler of its own:
 * SIGTRAP, still the default there, kills it (the event's remove_on_exec
 * comes too late for a period that ended before it).  So the calling
 * thread's event stops first, and starts again if the exec fails.  A
 * vfork()'s child runs on its parent's thread-local state: the event is
 * the parent's, which the child's exec leaves alone.
 */
void sampler_exec_begin(void)
{
	struct sampler_thread *s = &sampler_tls;
	int saved = errno;

	if (s->armed && trace_current()->tid == (uint32_t)syscall(SYS_gettid)) {
		s->in_exec = 1;
		/* a signal of the event after this point re-arms nothing */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (s->perf_fd >= 0)
			ioctl(s->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	errno = saved;
}

void sampler_exec_failed(void)
{
	struct sampler_thread *s = &sampler_tls;
	int saved = errno;

	if (s->in_exec) {
		s->in_exec = 0;
		if (s->perf_fd >= 0)
			enable_event(s->perf_fd);
	}
	errno = saved;
}

void sampler_forked(void)
{
	if (sampler.on)
		after_fork_child();
}

/* Called by the runtime's constructor once it records. */
HIDDEN void sampler_install(void)
{
	const char *text = runtime_config.contract.sampling, *why = NULL;
	struct sigaction act;

	if (!text[0] || (runtime_config.contract.count_nodes && !runtime_config.contract.time_by_samples) ||
	    runtime_config.contract.ring_bytes)
		return;
	if (sampling_parse(text, &sampler.settings, &why) != 0) {
		rt_warn("ignoring the sampling settings", why);
		return;
	}
	sampler.wall = sampler.settings.wall;
	sampler.period_ns = 1000000000u / sampler.settings.hz;
	if (runtime_config.contract.time_by_samples)
		runtime_config.sample_period_ns = sampler.period_ns;
	sampler.hooks_measured = sampler.settings.background ||
				 (!runtime_config.contract.sample_only &&
				  !runtime_config.contract.time_by_samples);
	if (runtime_config.contract.time_by_samples || sampler.hooks_measured)
		dl_iterate_phdr(find_self, (void *)(uintptr_t)on_sample);
	if (sampler.hooks_measured)
		hook_samples_set_period(sampler.period_ns);
	if (sampler.settings.only[0]) {
		int first = 1;
		dl_iterate_phdr(collect_only, &first);
		if (!sampler.nranges)
			rt_warn("--only names no object loaded at start; only one of that name "
				"loaded later (dlopen) will be sampled", sampler.settings.only);
	}
	dl_iterate_phdr(collect_text, NULL);
	enum event_support events = sampler.wall || sampler.settings.timer ? EVENTS_NONE
									   : probe_events();
	sampler.events = events != EVENTS_NONE;
	/* SIGTRAP when the program leaves it alone and the kernel sends it
	 * for task-clock events; else a free real-time signal */
	struct sigaction trap;
	sampler.sigtrap = events == EVENTS_SIGTRAP &&
			  runtime_real_sigaction(SIGTRAP, NULL, &trap) == 0 &&
			  !(trap.sa_flags & SA_SIGINFO) && trap.sa_handler == SIG_DFL;
	sampler.signo = sampler.sigtrap ? SIGTRAP : pick_signal();
	if (!sampler.signo) {
		rt_warn("no free real-time signal for the sampler; nothing is sampled", "");
		return;
	}
	if (pthread_key_create(&sampler_key, sampler_thread_stop) != 0)
		return;
	memset(&act, 0, sizeof(act));
	act.sa_sigaction = on_sample;
	/* SA_RESTART: a sampled read() or write() goes on; sleeps still end
	 * early with EINTR under the wall clock (see docs/record.md) */
	act.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&act.sa_mask);
	if (runtime_real_sigaction(sampler.signo, &act, NULL) != 0)
		return;
	sampler.on = 1;
	pthread_atfork(NULL, NULL, after_fork_child);
	start_main_thread();
}

/* The signal the sampler took, or 0 when it is off. */
HIDDEN int sampler_signal(void)
{
	return sampler.on ? sampler.signo : 0;
}

/*
 * sigaction() on the sampler's signal: the program's action is kept and
 * shown back to it, the sampler's handler stays installed and passes on
 * whatever signal is not its own.  A default action is not emulated: a
 * stray signal the program left at SIG_DFL is dropped instead of
 * terminating it.
 */
HIDDEN int sampler_sigaction(const struct sigaction *act, struct sigaction *old)
{
	struct sigaction previous = program_action;

	if (act)
		program_action = *act;
	if (old)
		*old = previous;
	return 0;
}
