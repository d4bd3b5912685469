/*
 * Writing the jumps while other threads may run: objects loaded by
 * dlopen, patched as it returns where the loader's changes cannot be
 * followed (loader_hook.c), and the loader's rendezvous itself.  A thread may be executing the very bytes being replaced, and
 * no page may be made writable (it would stop being executable under the
 * other threads' feet) nor writable and executable at once.  So the code
 * is changed through /proc/self/mem, which writes a private copy of the
 * page while its mapping stays R-X, in the order the processor manuals
 * give for code other cores may run:
 *
 *   1. an int3 over each window's first byte; a thread that reaches it
 *      traps, and the SIGTRAP handler sends it to the trampoline;
 *   2. every core serialized (membarrier SYNC_CORE), then the window's
 *      other bytes (the jump's displacement and the int3 fill);
 *   3. serialized again, then the first byte becomes the jmp opcode, and
 *      serialized once more.
 *
 * A thread is never inside a window the plan accepted except at its first
 * byte (no branch lands inside, and a call in a window is its last
 * instruction and returns past it), so stopping threads is not needed.
 * The handler stays installed: it knows the sites by address and hands
 * any other trap (the sampler's among them) to the action it replaced.
 */
#define _GNU_SOURCE
#include "patch.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* One batch of sites the handler knows: sorted by address. */
struct trap_batch {
	struct trap_batch *next;
	size_t n;
	struct trap_site {
		uintptr_t at, to;
	} site[];
};

static struct trap_batch *batches;
static struct sigaction previous;	/* what handled SIGTRAP before on_trap() */
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
		signal(sig, SIG_DFL);
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

/* Makes every core of the process see the code written so far. */
static void sync_cores(void)
{
	static int registered;

	if (!registered) {
		registered = syscall(SYS_membarrier,
				     MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0
				     ? 1
				     : -1;
		if (registered < 0)
			rt_warn("membarrier cannot serialize the other processors here (Linux 4.16 "
				"or later has MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE); code "
				"changed while threads run waits 10 ms between steps instead",
				strerror(errno));
	}
	if (registered > 0)
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
	else
		/* the int3 stays in place a while longer: a core still
		 * running the old bytes reaches it first */
		usleep(10000);
}

static int poke(int fd, uintptr_t at, const void *bytes, size_t n)
{
	return pwrite(fd, bytes, n, (off_t)at) == (ssize_t)n ? 0 : -1;
}

int live_write_code(uintptr_t at, const uint8_t *bytes, size_t n)
{
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	/* the first byte last: a thread running there sees the old
	 * instruction or the new one whole */
	if ((n > 1 && poke(fd, at + 1, bytes + 1, n - 1) != 0) || poke(fd, at, bytes, 1) != 0)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

int live_write_jumps(const struct live_site *sites, size_t n)
{
	static const uint8_t int3 = 0xcc;
	size_t bytes = sizeof(struct trap_batch) + n * sizeof(struct trap_site);
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return errno;
	struct trap_batch *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED || install_handler() != 0) {
		int err = errno;
		if (b != MAP_FAILED)
			munmap(b, bytes);
		close(fd);
		return err;
	}
	b->n = n;
	for (size_t i = 0; i < n; i++) {
		b->site[i].at = sites[i].at;
		b->site[i].to = sites[i].to;
	}
	b->next = batches;
	__atomic_store_n(&batches, b, __ATOMIC_RELEASE);

	/* the first write tells whether /proc/self/mem may change code here;
	 * if it may not, nothing was changed */
	for (size_t i = 0; i < n; i++) {
		if (poke(fd, sites[i].at, &int3, 1) != 0) {
			int err = errno;
			if (i == 0) {
				close(fd);
				return err ? err : EIO;
			}
			/* cannot happen once the first went through; the
			 * trap handler keeps the sites written so far right */
			close(fd);
			return 0;
		}
	}
	sync_cores();
	for (size_t i = 0; i < n; i++)
		poke(fd, sites[i].at + 1, sites[i].jump + 1, sites[i].window - 1);
	sync_cores();
	for (size_t i = 0; i < n; i++)
		poke(fd, sites[i].at, sites[i].jump, 1);
	sync_cores();
	close(fd);
	return 0;
}
