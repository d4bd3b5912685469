/*
 * Fatal signals: when the program dies of SIGSEGV, SIGBUS, SIGFPE, SIGILL
 * or SIGABRT, a SIGNAL record names the signal at the point where it
 * happened, so the replay ends at the function that was running.  The
 * handler then puts back whatever was there before and lets the signal do
 * what it would have done: a fault re-executes and meets the old action;
 * a signal that was sent (raise, abort, kill) is raised again.
 *
 * Each recording thread gets an alternate signal stack (thread.c), so a
 * stack overflow is recorded too.  The handler is async-signal-safe: it writes
 * into the thread's mapped buffer and calls only sigaction and raise.
 * A program that installs its own handler later replaces ours; it loses
 * nothing but the SIGNAL record.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "stream.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static struct sigaction previous[NFATAL];

static int slot_of(int sig)
{
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			return (int)i;
	return -1;
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context)
{
	struct thread_state *t = trace_current();
	int saved = errno;
	int slot = slot_of(sig);

	(void)context;
	/* a fault inside a hook leaves the stream mid-record: skip then */
	if (t->status == THREAD_RECORDING && !t->guard) {
		guard_take(t, 1);
		trace_emit_note(t, STREAM_SIGNAL, (uint64_t)sig, NULL, 0);
		guard_restore(t, 0);
	}
	if (slot >= 0)
		runtime_real_sigaction(sig, &previous[slot], NULL);
	if (info->si_code <= 0)
		raise(sig);
	errno = saved;
}

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++) {
		if (runtime_real_sigaction(fatal_signals[i], NULL, &previous[i]) != 0)
			continue;
		/* leave a program's own choice (a handler, or ignoring) alone */
		if (previous[i].sa_handler != SIG_DFL)
			continue;
		runtime_real_sigaction(fatal_signals[i], &sa, NULL);
	}
}
