/*
 * Small helpers: no stdio, no allocation.  All are async-signal-safe but
 * runtime_next_symbol(), which only the runtime's stand-ins for libc and
 * libgcc functions call.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

char *rt_append(char *p, char *end, const char *s)
{
	while (p && *s) {
		if (p >= end - 1)
			return NULL;
		*p++ = *s++;
	}
	if (p)
		*p = '\0';
	return p;
}

void rt_file_id_of(int fd, struct rt_file_id *id)
{
	struct stat st;

	id->dev = id->ino = 0;
	if (fstat(fd, &st) == 0) {
		id->dev = (uint64_t)st.st_dev;
		id->ino = (uint64_t)st.st_ino;
	}
}

int rt_fd_is(int fd, const struct rt_file_id *id)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && id->ino &&
	       (uint64_t)st.st_dev == id->dev && (uint64_t)st.st_ino == id->ino;
}

void rt_close_own(int fd, const struct rt_file_id *id)
{
	if (rt_fd_is(fd, id))
		close(fd);
}

/* Up to SIZE bytes of a small file (a /proc entry) into BUF; how many. */
size_t rt_read_small_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return 0;
	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return got;
}

uint64_t rt_perf_id(int fd)
{
	uint64_t id = 0;

	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0)
		return 0;
	return id;
}

char *rt_append_u64(char *p, char *end, uint64_t v)
{
	char digits[21];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (p && n) {
		if (p >= end - 1)
			return NULL;
		*p++ = digits[--n];
	}
	if (p)
		*p = '\0';
	return p;
}

/* record --log's file, copied at start-up (the program may change its
 * environment); "": the program's stderr */
static char log_path[CONTRACT_PATH_MAX];

void rt_log_init(void)
{
	const char *path = secure_getenv(CONTRACT_LOG_ENV);

	if (path && path[0] == '/' && strlen(path) < sizeof(log_path))
		memcpy(log_path, path, strlen(path) + 1);
}

/* Writes LINE to the log, opened for each line (warnings are rare, and a
 * descriptor kept open could be closed or taken over by the program);
 * returns nonzero when it could not. */
static int log_line(const char *line, size_t len)
{
	if (!log_path[0])
		return -1;
	int fd = open(log_path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, line, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* One line on stderr (or record --log's file), written in one call so
 * lines from threads do not mix. */
void rt_warn(const char *msg, const char *detail)
{
	char line[512];
	char *end = line + sizeof(line) - 1;
	char *p = rt_append(line, end, "callscope: ");
	p = rt_append(p, end, msg);
	if (p && detail && *detail) {
		p = rt_append(p, end, ": ");
		p = rt_append(p, end, detail);
	}
	if (!p)
		p = end;
	*p++ = '\n';
	if (log_line(line, (size_t)(p - line)) == 0)
		return;
	ssize_t ignored = write(STDERR_FILENO, line, (size_t)(p - line));
	(void)ignored;
}

void rt_warn_joined(const char *const parts[], const char *short_msg)
{
	char line[400], *end = line + sizeof(line) - 1, *p = line;

	*p = '\0';
	for (size_t i = 0; parts[i]; i++)
		p = rt_append(p, end, parts[i]);
	rt_warn(p ? line : short_msg, "");
}

/*
 * How many bytes, from OFFSET, a staging file may grow by under the
 * program's RLIMIT_FSIZE, at most WANT.  Growing a file past the limit
 * raises SIGXFSZ, which would kill the program; callers take what fits,
 * and when nothing does (0, errno EFBIG) stop recording and count what is
 * lost instead.  Read at each growth, as the program may change it.
 */
uint64_t rt_file_room(uint64_t offset, uint64_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    offset + want <= (uint64_t)rl.rlim_cur)
		return want;
	if (offset >= (uint64_t)rl.rlim_cur) {
		errno = EFBIG;
		return 0;
	}
	return (uint64_t)rl.rlim_cur - offset;
}

void *runtime_next_symbol(const char *name)
{
	int saved = errno;
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {
		rt_warn("cannot find the function the runtime stands in for", name);
		abort();
	}
	errno = saved;
	return fn;
}
