/*
 * Signal handlers as calls of their own.  The runtime stands in for
 * sigaction() and the signal() family (signal, bsd_signal, and
 * sysv_signal, which a program built with _POSIX_C_SOURCE calls for signal
 * as __sysv_signal): a handler the program installs is kept in a
 * table and a wrapper is installed in its place, which records the
 * handler's run as a pseudo-call "<signal N>" (address SIGNAL_FRAME_BASE +
 * N) around the real handler.  Reports can then show that time under its
 * own node, leave it out of the interrupted function, or ignore the
 * wrapper (--signal-filter).  Asking for the current action gets the
 * program's own handler back, so the stand-in is invisible.
 *
 * A handler left by siglongjmp never returns through the wrapper; the
 * pseudo-call is then closed by stack repair like any abandoned call.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "raw_syscall.h"
#include "sampler.h"
#include "stream.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

/* The program's own actions for signals whose handler we wrapped. */
static struct sigaction program_action[NSIG];
static int wrapped[NSIG];
static sigaction_fn real_sigaction;
/* Which of the signals the runtime keeps unblocked (kept_unblocked())
 * the program blocked in this thread, as it reads them back.  A new thread
 * starts with its creator's (signal_masks_thread_start()). */
static __thread uint64_t program_blocked __attribute__((tls_model("initial-exec")));

static sigaction_fn get_real_sigaction(void)
{
	if (!real_sigaction)
		real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return real_sigaction;
}

int runtime_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigaction_fn fn = get_real_sigaction();
	if (!fn) {
		errno = ENOSYS;
		return -1;
	}
	return fn(sig, act, old);
}

/*
 * Does the handler run on a stack above the one it interrupted (a
 * sigaltstack at a higher address)?  Its calls would then make stack
 * repair close every interrupted call, still live below, so those are
 * treated as left by a stack switch (see trace_stack_switch()).  On the
 * same stack, or one below, the handler's frames are simply deeper.
 */
static int on_higher_stack(uintptr_t here, void *context)
{
#if defined(__x86_64__)
	const ucontext_t *uc = context;
	return uc && here > (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#else
	(void)here;
	(void)context;
	return 0;
#endif
}

/*
 * A signal the kernel raised for the instruction that faulted (a bad
 * address, a division by zero, a breakpoint) must be handled where it
 * happened: sent again later, it would not be the same event.  Any other
 * (a timer, a child's end, kill, sigqueue) may wait a few instructions.
 */
static int raised_by_fault(int sig, const siginfo_t *info)
{
	switch (sig) {
	case SIGSEGV:
	case SIGBUS:
	case SIGFPE:
	case SIGILL:
	case SIGTRAP:
	case SIGSYS:
		return info->si_code > 0;
	default:
		return 0;
	}
}

/*
 * A signal that arrives while the thread's guard is held (inside a hook,
 * a sample or other work of the runtime) cannot be recorded there, and
 * neither could its handler's calls.  The runtime keeps it and sends it
 * again, with the same siginfo, when the guard is freed
 * (signals_send_held()), a few hundred nanoseconds later: as if the
 * kernel had delivered it after the hook.  Not kept, and run at once
 * unrecorded as before: a fault's signal, a one-shot handler (the kernel
 * has already reset it), and a real-time signal past the few that can
 * wait.
 *
 * The held signals are a queue that signal handlers change under one
 * another: a signal of another kind may arrive while one is being held
 * (both add to the queue), and while one is being taken out (it adds).
 * Nothing takes out while something adds, as taking out needs a free
 * guard.  So a slot is claimed in one instruction before it is written,
 * the count grows only once the slot is written, and a slot taken out
 * is marked empty, as a claimed slot reads until it is written.
 */
static int hold_signal(struct thread_state *t, int sig, const siginfo_t *info)
{
	if (t->status != THREAD_RECORDING || raised_by_fault(sig, info) ||
	    (program_action[sig].sa_flags & SA_RESETHAND))
		return 0;
	uint32_t next = __atomic_load_n(&t->held_next, __ATOMIC_RELAXED);
	/* while the guard is held the signal is as good as blocked, and a
	 * blocked signal below SIGRTMIN is pending once however often it
	 * comes (growing the buffer may take a millisecond) */
	for (uint32_t i = t->held_first; i != next && sig < SIGRTMIN; i++)
		if (t->held_signal[i % SIGNALS_HELD_MAX].si_signo == sig)
			return 1;
	do {
		if (next - t->held_first >= SIGNALS_HELD_MAX)
			return 0;
	} while (!__atomic_compare_exchange_n(&t->held_next, &next, next + 1, 0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	t->held_signal[next % SIGNALS_HELD_MAX] = *info;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_add_fetch(&t->signals_held, 1, __ATOMIC_RELAXED);
	return 1;
}

uintptr_t signals_send_held(struct thread_state *t, uintptr_t result)
{
	int saved = errno;
	/* the thread's id as its buffer recorded it: only a recording
	 * thread holds signals */
	pid_t pid = getpid(), tid = (pid_t)t->tid;

	while (t->signals_held) {
		/* taken out under the guard, so that one arriving meanwhile
		 * waits its turn, and sent with the guard free, so that its
		 * handler is recorded.  The count is read again under the
		 * guard: a handler that ran since the test (the sampler's,
		 * freeing its own guard) may have sent them all. */
		siginfo_t info;
		guard_take(t, 1);
		int have = t->signals_held != 0;
		if (have) {
			siginfo_t *slot = &t->held_signal[t->held_first % SIGNALS_HELD_MAX];
			info = *slot;
			slot->si_signo = 0;
			t->held_first++;
			__atomic_sub_fetch(&t->signals_held, 1, __ATOMIC_RELAXED);
		}
		guard_put(t, 0);
		if (have && syscall(SYS_rt_tgsigqueueinfo, pid, tid, info.si_signo, &info) != 0)
			syscall(SYS_tgkill, pid, tid, info.si_signo);
	}
	errno = saved;
	return result;
}

void signals_forget_held(struct thread_state *t)
{
	t->signals_held = 0;
	t->held_first = t->held_next = 0;
	for (int i = 0; i < SIGNALS_HELD_MAX; i++)
		t->held_signal[i].si_signo = 0;
}

static void run_wrapped(int sig, siginfo_t *info, void *context)
{
	struct thread_state *t = trace_current();
	const struct sigaction *a = &program_action[sig];
	uint64_t frame = SIGNAL_FRAME_BASE + (uint64_t)sig;
	/* a run that only samples traces no call, a handler's neither */
	int recording = t->status == THREAD_RECORDING && !t->guard &&
			!runtime_config.contract.sample_only;
	int saved = errno;

	if (t->guard && hold_signal(t, sig, info))
		return;
	/* the kernel reset the action as it delivered a one-shot handler's
	 * signal: the program's table says so too, for whoever asks */
	struct sigaction once;
	if (a->sa_flags & SA_RESETHAND) {
		once = *a;
		a = &once;
		program_action[sig].sa_handler = SIG_DFL;
		program_action[sig].sa_flags &= ~SA_SIGINFO;
		wrapped[sig] = 0;
	}

	if (recording) {
		uintptr_t here = (uintptr_t)__builtin_frame_address(0);
		if (on_higher_stack(here, context))
			trace_stack_switch(t);
		trace_enter(t, frame, here, NULL);
	}
	/* the kernel puts the thread's mask back as the handler returns, and
	 * the program's view of it goes back with it */
	uint64_t blocked = program_blocked;
	errno = saved;
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, info, context);
	else if (a->sa_handler != SIG_IGN && a->sa_handler != SIG_DFL)
		a->sa_handler(sig);
	saved = errno;
	program_blocked = blocked;
	if (recording)
		trace_exit_named(t, frame);
	errno = saved;
}

/*
 * Signals the runtime keeps unblocked.  While patched entries trap
 * (patch/trap.c), SIGTRAP must reach their handler everywhere: the kernel
 * kills a thread whose int3 traps with the signal blocked.  While the
 * sampler samples, its signal must reach its handler: a thread that blocks
 * it is never sampled, and thread pools (liblzma's, among many) block
 * every signal around pthread_create, so their workers start with a full
 * mask.  So no handler's mask nor thread's mask blocks them then; the
 * program still reads its masks back as it set them (program_blocked).
 */
#define SIGNAL_BIT(sig) (1ull << ((sig) - 1))

static uint64_t kept_unblocked(void)
{
	uint64_t kept = 0;
	int sampled = sampler_signal();

	if (patch_trap_sigaction(NULL, NULL))
		kept |= SIGNAL_BIT(SIGTRAP);
	if (sampled)
		kept |= SIGNAL_BIT(sampled);
	return kept;
}

/* Those of KEPT that SET holds. */
static uint64_t kept_in(const sigset_t *set, uint64_t kept)
{
	uint64_t in = 0;

	for (int sig = 1; sig <= 64; sig++)
		if ((kept & SIGNAL_BIT(sig)) && sigismember(set, sig) == 1)
			in |= SIGNAL_BIT(sig);
	return in;
}

/* SET without the signals the runtime keeps unblocked: SET itself, or
 * COPY holding the rest. */
static const sigset_t *without_kept(const sigset_t *set, sigset_t *copy)
{
	uint64_t in = set ? kept_in(set, kept_unblocked()) : 0;

	if (!in)
		return set;
	*copy = *set;
	for (int sig = 1; sig <= 64; sig++)
		if (in & SIGNAL_BIT(sig))
			sigdelset(copy, sig);
	return copy;
}

uint64_t signal_masks_program_blocked(void)
{
	return program_blocked;
}

void signal_masks_thread_start(uint64_t inherited)
{
	uint64_t kept = kept_unblocked(), was = 0;

	program_blocked |= inherited;
	/* blocked by a raw system call, or by pthread_attr_setsigmask_np:
	 * the kernel's mask is a 64-bit word of signals 1 to 64 */
	if (!kept || raw_failed(raw_syscall6(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&kept,
					     (long)&was, sizeof(kept), 0, 0)))
		return;
	program_blocked |= was & kept;
}

/* Sets the kernel's action for SIG; SIGTRAP's goes behind the handler of
 * patched entries' traps while one is in.  The kept signals stay out of
 * the handler's mask: the program reads its own back (see sigaction()). */
static int set_action(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction copy;

	if (sig == SIGTRAP && patch_trap_sigaction(act, old))
		return 0;
	if (act && without_kept(&act->sa_mask, &copy.sa_mask) != &act->sa_mask) {
		sigset_t mask = copy.sa_mask;
		copy = *act;
		copy.sa_mask = mask;
		act = &copy;
	}
	return runtime_real_sigaction(sig, act, old);
}

typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);

/* libc's, found at start-up: a handler may change its mask, and dlsym()
 * is no call for a handler */
static sigmask_fn real_sigprocmask, real_pthread_sigmask;

void signal_masks_resolve(void)
{
	real_sigprocmask = (sigmask_fn)dlsym(RTLD_NEXT, "sigprocmask");
	real_pthread_sigmask = (sigmask_fn)dlsym(RTLD_NEXT, "pthread_sigmask");
}

static int set_mask(sigmask_fn *real, const char *name, int how, const sigset_t *set,
		    sigset_t *old)
{
	sigset_t copy;

	if (!*real)
		*real = (sigmask_fn)dlsym(RTLD_NEXT, name);
	if (!*real) {
		errno = ENOSYS;
		return -1;
	}
	uint64_t kept = kept_unblocked(), was = program_blocked, now = was;
	/* read before the call: OLD may be SET */
	if (set && how == SIG_BLOCK)
		now = was | kept_in(set, kept);
	else if (set && how == SIG_UNBLOCK)
		now = was & ~kept_in(set, kept);
	else if (set && how == SIG_SETMASK)
		now = kept_in(set, kept);
	int rc = (*real)(how, how == SIG_UNBLOCK ? set : without_kept(set, &copy), old);
	if (rc != 0)
		return rc;
	program_blocked = now;
	for (int sig = 1; old && sig <= 64; sig++)
		if (was & kept & SIGNAL_BIT(sig))
			sigaddset(old, sig);
	return rc;
}

EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return set_mask(&real_sigprocmask, "sigprocmask", how, set, old);
}

EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return set_mask(&real_pthread_sigmask, "pthread_sigmask", how, set, old);
}

static int has_handler(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) ||
	       (a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN);
}

EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction mine, previous;
	int rc;

	if (sig <= 0 || sig >= NSIG || !runtime_config.active)
		return runtime_real_sigaction(sig, act, old);
	if (sig == sampler_signal())
		return sampler_sigaction(act, old);
	previous = program_action[sig];
	int was_wrapped = wrapped[sig];
	if (act && has_handler(act)) {
		mine = *act;
		mine.sa_sigaction = run_wrapped;
		mine.sa_flags |= SA_SIGINFO;
		program_action[sig] = *act;
		rc = set_action(sig, &mine, old);
		if (rc == 0)
			wrapped[sig] = 1;
		else
			program_action[sig] = previous;
	} else {
		rc = set_action(sig, act, old);
		if (rc == 0 && act)
			wrapped[sig] = 0;
	}
	/* the program sees its own handler, never the wrapper */
	if (rc == 0 && old && was_wrapped)
		*old = previous;
	return rc;
}

/* signal() and its kin with FLAGS, through the sigaction stand-in. */
static sighandler_t signal_with(int sig, sighandler_t handler, int flags)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = flags;
	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* BSD semantics, glibc's signal(): the handler stays, calls restart */
EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	return signal_with(sig, handler, SA_RESTART);
}

/* libc has it still; its header no longer declares it */
sighandler_t bsd_signal(int sig, sighandler_t handler);

EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler)
{
	return signal_with(sig, handler, SA_RESTART);
}

/* System V semantics: the handler runs once, its signal not blocked */
EXPORT sighandler_t __sysv_signal(int sig, sighandler_t handler)
{
	return signal_with(sig, handler, SA_RESETHAND | SA_NODEFER);
}

EXPORT sighandler_t sysv_signal(int sig, sighandler_t handler)
{
	return signal_with(sig, handler, SA_RESETHAND | SA_NODEFER);
}
