/*
 * Memory for trampolines.  A site's relocated instructions keep their
 * RIP-relative operands and branches as 32-bit displacements, so its
 * trampoline must lie within 2 GiB of the object; the jump written into
 * the text must reach it too.  The pool is placed just below the object
 * (below a PIE program lies free space; above it grows the heap), one page
 * step further each time a place is taken, then above it.
 *
 * W^X: the pool is a memfd mapped twice, writable at one address and
 * executable at another, so no page is ever writable and executable at
 * once; the writable view is dropped when the slots are written.
 */
#define _GNU_SOURCE
#include "patch.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define REACH 0x7ff00000ull	/* 2 GiB less a margin */
#define STEP (1ull << 20)
#define TRIES 1024

static int reaches(uintptr_t at, size_t size, uintptr_t lo, uintptr_t hi)
{
	uint64_t far = at < lo ? hi - at : at + size - lo;
	return far <= REACH;
}

/* Maps FD's SIZE bytes executable at HINT exactly (never over a mapping);
 * returns 1 on success, 0 if the place is taken or out of reach, -1 on a
 * refusal that trying elsewhere will not cure. */
static int map_rx_at(struct pool *p, int fd, uintptr_t hint, uintptr_t lo, uintptr_t hi)
{
	void *at = mmap((void *)hint, p->size, PROT_READ | PROT_EXEC,
			MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);

	if (at == MAP_FAILED)
		return errno == EEXIST || errno == ENOMEM ? 0 : -1;
	/* a kernel older than MAP_FIXED_NOREPLACE takes it as a hint */
	if (!reaches((uintptr_t)at, p->size, lo, hi)) {
		munmap(at, p->size);
		return 0;
	}
	p->rx = (uintptr_t)at;
	return 1;
}

/* Returns 0, or -1 with errno set (ENOSPC: no room within reach). */
static int map_rx_near(struct pool *p, int fd, uintptr_t lo, uintptr_t hi)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	for (uintptr_t k = 0; k < TRIES; k++) {
		uintptr_t gap = p->size + k * STEP;
		if (lo <= gap + (1u << 16))
			break;
		uintptr_t hint = (lo - gap) & ~(page - 1);
		if (!reaches(hint, p->size, lo, hi))
			break;
		int r = map_rx_at(p, fd, hint, lo, hi);
		if (r)
			return r > 0 ? 0 : -1;
	}
	for (uintptr_t k = 0; k < TRIES; k++) {
		uintptr_t hint = (hi + page - 1 + k * STEP) & ~(page - 1);
		if (!reaches(hint, p->size, lo, hi))
			break;
		int r = map_rx_at(p, fd, hint, lo, hi);
		if (r)
			return r > 0 ? 0 : -1;
	}
	errno = ENOSPC;
	return -1;
}

int pool_map(struct pool *p, uintptr_t lo, uintptr_t hi, size_t size, const char **why)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int fd = memfd_create("callscope-trampolines", MFD_CLOEXEC);

	p->size = (size + page - 1) & ~(page - 1);
	p->rw = MAP_FAILED;
	if (fd < 0) {
		*why = "memfd_create";
		return -1;
	}
	if (ftruncate(fd, (off_t)p->size) != 0) {
		*why = "sizing the trampoline memfd";
		goto fail;
	}
	p->rw = mmap(NULL, p->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p->rw == MAP_FAILED) {
		*why = "mapping the trampolines writable";
		goto fail;
	}
	if (map_rx_near(p, fd, lo, hi) != 0) {
		*why = errno == ENOSPC ? "finding room for trampolines within 2 GiB"
				       : "mapping the trampolines executable";
		goto fail;
	}
	close(fd);
	return 0;
fail:;
	int saved = errno;
	if (p->rw != MAP_FAILED)
		munmap(p->rw, p->size);
	close(fd);
	errno = saved;
	return -1;
}

void pool_seal(struct pool *p)
{
	munmap(p->rw, p->size);
	p->rw = NULL;
}

void pool_unmap(struct pool *p)
{
	if (p->rw)
		munmap(p->rw, p->size);
	munmap((void *)p->rx, p->size);
}
