/*
 * The SIGTRAP handler of patched entries.  An int3 stands at a site's
 * first byte for a while when a jump is written into running code
 * (live.c), and for good at a site too small for any jump (a trap site,
 * PATCH_INT3).  Either way the handler finds the trapping address among
 * the sites it was given and sends the thread on to the trampoline, as
 * the jump would have.
 *
 * Any other SIGTRAP (a breakpoint of the program's own, kill(), raise(),
 * the sampler's task-clock events) goes to the action the program set, or
 * the one the handler was put in front of: the program's sigaction() on
 * SIGTRAP sets that action (patch_trap_sigaction()) and leaves the handler
 * in place, so a program that takes SIGTRAP keeps the traps working and
 * still gets its own.
 */
#define _GNU_SOURCE
#include "patch.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

/* One batch of sites the handler knows: sorted by address. */
struct trap_batch {
	struct trap_batch *next;
	size_t n;
	struct trap_site site[];
};

static struct trap_batch *batches;
static struct sigaction previous;	/* what gets the traps that are not ours */
static int handler_installed;

static void on_trap(int sig, siginfo_t *info, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t at = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP] - 1;

	/* an int3 says SI_KERNEL; the sampler's task-clock events, kill()
	 * and raise() say otherwise, whatever the PC */
	for (struct trap_batch *b = info->si_code == SI_KERNEL
					    ? __atomic_load_n(&batches, __ATOMIC_ACQUIRE)
					    : NULL;
	     b; b = b->next) {
		size_t lo = 0, hi = b->n;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (b->site[mid].at < at)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < b->n && b->site[lo].at == at) {
			uc->uc_mcontext.gregs[REG_RIP] = (greg_t)b->site[lo].to;
			return;
		}
	}
	/* not ours: what the program asked for */
	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(sig, info, ctx);
	} else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL) {
		previous.sa_handler(sig);
	} else {
		/* the default action ends the program as it would have */
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		runtime_real_sigaction(sig, &dfl, NULL);
		raise(sig);
	}
}

/* Puts on_trap() in front of whatever handles SIGTRAP now (the sampler
 * may have taken it since the last time), which gets the other traps. */
static int install_handler(void)
{
	struct sigaction sa, now;

	if (runtime_real_sigaction(SIGTRAP, NULL, &now) != 0)
		return -1;
	if (handler_installed && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_trap)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (runtime_real_sigaction(SIGTRAP, &sa, &previous) != 0)
		return -1;
	handler_installed = 1;
	return 0;
}

int trap_sites_add(const struct trap_site *sites, size_t n)
{
	size_t bytes = sizeof(struct trap_batch) + n * sizeof(struct trap_site);
	struct trap_batch *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (b == MAP_FAILED)
		return errno;
	if (install_handler() != 0) {
		int err = errno;
		munmap(b, bytes);
		return err;
	}
	b->n = n;
	memcpy(b->site, sites, n * sizeof(*sites));
	b->next = batches;
	__atomic_store_n(&batches, b, __ATOMIC_RELEASE);
	return 0;
}

int patch_trap_sigaction(const struct sigaction *act, struct sigaction *old)
{
	if (!handler_installed)
		return 0;
	if (old)
		*old = previous;
	if (act)
		previous = *act;
	return 1;
}
