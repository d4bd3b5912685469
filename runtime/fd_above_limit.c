/*
 * The runtime's descriptors above the program's descriptor limit.
 *
 * Each descriptor the runtime keeps open (its process file, a thread's
 * buffer, the control socket and its clients, the sampling and counting
 * perf events) would otherwise take the lowest free number, where the
 * program sees it: a scan of 0 .. sysconf(_SC_OPEN_MAX) lists it (CPython's
 * subprocess tests do this in a child), the program's first open() gets a
 * higher number than it gets plainly, and a program that takes fixed
 * numbers (dup2(x, 3), a shell's `exec 3>`) or closes all it did not open
 * takes it from under the runtime, which then notices (rt_fd_is()) but
 * records no more through it.  So, as valgrind keeps its own, each is moved
 * at or above the soft RLIMIT_NOFILE as soon as it is made, where the
 * kernel hands out no number (open, dup2 and F_DUPFD all fail there) and
 * the program's scan up to the limit does not look.
 *
 * F_DUPFD_CLOEXEC hands out no number at or above the soft limit either,
 * so the limit is raised (never past the hard limit) for the moment of
 * the copy and put back.  The kernel checks the limit when it hands out a
 * number, never when one is used: a descriptor above the limit stays valid
 * (read, write, mmap, poll, fcntl, close, and its copy in a forked child)
 * after the limit is lowered again, as checked on Linux 6.18.  Where the
 * hard limit leaves no room, or anything fails, the descriptor stays where
 * it was made: recording never fails for this.
 *
 * The limit is the whole process's, so the moment it is raised is one
 * other threads may see:
 * - a program thread's open() still gets the lowest free number, below the
 *   limit, unless every one is taken: then it gets one above instead of
 *   failing with EMFILE, a descriptor as valid as any;
 * - a program thread's setrlimit() between the raise and the restore is
 *   not undone: the restore reads back what it replaced and, when that is
 *   no longer the raised limit, puts the program's back;
 * - the runtime's own threads move one descriptor at a time (mutex): two
 *   moves interleaved would each put back the other's raised limit;
 * - fork() waits for a move under way (the mutex, taken by a fork
 *   handler), so no child starts with the raised limit.  A clone() child
 *   (runtime_cloned()) gets no fork handler: it puts the limit back if a
 *   move was under way when it was made.  A vfork child execs with what
 *   it was given, the raised limit only if it started inside those few
 *   microseconds;
 * - signals are blocked meanwhile, so that a handler on the moving thread
 *   can neither fork nor move a descriptor of its own, which would wait
 *   for the mutex that thread holds.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

/* How far the soft limit is raised first: room for many threads'
 * descriptors; a process holding more tries again with more room. */
#define ROOM_FIRST 64
#define ROOM_GROWTH 16
#define ROOM_TRIES 4

static pthread_mutex_t moving = PTHREAD_MUTEX_INITIALIZER;
/* The limit a move under way raised and the one it puts back, for a
 * clone() child made meanwhile; soft 0 when no move is under way. */
static struct rlimit raised_from, raised_to;

/* Puts back FROM where the limit is still TO (the program may have set
 * its own meanwhile, which then stays). */
static void limit_restore(const struct rlimit *from, const struct rlimit *to)
{
	struct rlimit seen;

	if (prlimit(0, RLIMIT_NOFILE, from, &seen) != 0)
		return;
	if (seen.rlim_cur != to->rlim_cur || seen.rlim_max != to->rlim_max)
		prlimit(0, RLIMIT_NOFILE, &seen, NULL);
}

/* FD copied at or above LIMIT's soft limit; -1 when there is no room. */
static int copy_above(int fd, const struct rlimit *limit)
{
	rlim_t room = ROOM_FIRST;
	int high = -1;

	raised_from = *limit;
	for (int i = 0; i < ROOM_TRIES; i++, room *= ROOM_GROWTH) {
		raised_to.rlim_max = limit->rlim_max;
		raised_to.rlim_cur = limit->rlim_max - limit->rlim_cur > room
					     ? limit->rlim_cur + room
					     : limit->rlim_max;
		if (prlimit(0, RLIMIT_NOFILE, &raised_to, NULL) != 0)
			break;
		/* from halfway up the room: a program that lowered its limit
		 * below descriptors it holds may look a little past it
		 * (CPython's subprocess tests look at every number up to the
		 * highest they hold); all of it when it is the last there is */
		rlim_t gap = raised_to.rlim_cur == limit->rlim_max
				     ? 0
				     : (raised_to.rlim_cur - limit->rlim_cur) / 2;
		high = fcntl(fd, F_DUPFD_CLOEXEC, (int)(limit->rlim_cur + gap));
		/* EMFILE: the room is taken (descriptors of many threads) */
		if (high >= 0 || errno != EMFILE || raised_to.rlim_cur == limit->rlim_max)
			break;
	}
	limit_restore(limit, &raised_to);
	raised_from.rlim_cur = 0;
	return high;
}

/* Whether the limit as read leaves room above it for FD, which is below. */
static int has_room(int fd, const struct rlimit *limit)
{
	return limit->rlim_cur < limit->rlim_max && limit->rlim_cur <= INT_MAX - ROOM_FIRST &&
	       (rlim_t)fd < limit->rlim_cur;
}

/* FD moved; when WAIT is 0 and another move is under way, -1 (EAGAIN)
 * with FD closed. */
static int move_above(int fd, int wait)
{
	struct rlimit limit;
	sigset_t all, old;
	int saved = errno, high = -1;

	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &limit) != 0 || !has_room(fd, &limit))
		return fd;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (wait) {
		pthread_mutex_lock(&moving);
	} else if (pthread_mutex_trylock(&moving) != 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		close(fd);
		errno = EAGAIN;
		return -1;
	}
	/* read again: the first read may have seen another move's raise */
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && has_room(fd, &limit))
		high = copy_above(fd, &limit);
	pthread_mutex_unlock(&moving);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (high >= 0)
		close(fd);
	errno = saved;
	return high >= 0 ? high : fd;
}

int rt_fd_above_limit(int fd)
{
	return move_above(fd, 1);
}

int rt_fd_above_limit_nowait(int fd)
{
	return move_above(fd, 0);
}

void rt_kept_file_open(struct rt_kept_file *f, const char *path)
{
	rt_close_own(f->fd, &f->id);	/* a parent's, in a fork's child */
	f->fd = rt_fd_above_limit(open(path, O_RDONLY | O_CLOEXEC));
	if (f->fd >= 0)
		rt_file_id_of(f->fd, &f->id);
}

ssize_t rt_kept_file_read(const struct rt_kept_file *f, char *buf, size_t size, off_t at)
{
	if (!rt_fd_is(f->fd, &f->id))
		return -1;
	for (;;) {
		ssize_t n = pread(f->fd, buf, size, at);
		if (n >= 0 || errno != EINTR)
			return n;
	}
}

static void before_fork(void)
{
	pthread_mutex_lock(&moving);
}

static void after_fork(void)
{
	pthread_mutex_unlock(&moving);
}

void fd_above_limit_cloned(void)
{
	pthread_mutex_init(&moving, NULL);
	if (raised_from.rlim_cur)
		limit_restore(&raised_from, &raised_to);
	raised_from.rlim_cur = 0;
}

void fd_above_limit_install(void)
{
	pthread_atfork(before_fork, after_fork, after_fork);
}
