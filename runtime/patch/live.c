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
 *      other bytes (the jump's displacement and the int3 fill) and a
 *      short jump's island in padding (an island in another window is
 *      among that window's bytes);
 *   3. serialized again, then the first byte becomes the jmp opcode, and
 *      serialized once more.
 *
 * A thread is never inside a window the plan accepted except at its first
 * byte (no branch lands inside, and a call in a window is its last
 * instruction and returns past it), so stopping threads is not needed.
 * The handler (trap.c) stays installed: it knows the sites by address
 * and hands any other trap to the program's action.
 */
#define _GNU_SOURCE
#include "patch.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return errno;
	struct trap_site *traps = calloc(n ? n : 1, sizeof(*traps));
	int err = traps ? 0 : ENOMEM;
	for (size_t i = 0; traps && i < n; i++)
		traps[i] = sites[i].trap;
	if (!err)
		err = trap_sites_add(traps, n);
	free(traps);
	if (err) {
		close(fd);
		return err;
	}

	/* the first write tells whether /proc/self/mem may change code here;
	 * if it may not, nothing was changed */
	for (size_t i = 0; i < n; i++) {
		if (poke(fd, sites[i].trap.at, &int3, 1) != 0) {
			err = errno;
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
	for (size_t i = 0; i < n; i++) {
		poke(fd, sites[i].trap.at + 1, sites[i].jump + 1, sites[i].window - 1);
		if (sites[i].island)
			poke(fd, sites[i].island, sites[i].island_jump, PATCH_ISLAND);
	}
	sync_cores();
	for (size_t i = 0; i < n; i++)
		poke(fd, sites[i].trap.at, sites[i].jump, 1);
	sync_cores();
	close(fd);
	return 0;
}
