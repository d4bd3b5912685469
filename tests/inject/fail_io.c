/*
 * libfail_io.so: makes file I/O fail on demand, for the tests of what
 * callscope does on a full disk or a failing mapping.  Preloaded
 * (LD_PRELOAD) into record, the runtime or any tool, it reads
 * CALLSCOPE_FAIL_IO, a comma-separated list of CALL:SKIP:ERRNO[:MIN], e.g.
 *
 *     CALLSCOPE_FAIL_IO=fallocate:3:ENOSPC,mmap:0:ENOMEM:65536
 *
 * where CALL is write (write, pwrite, fwrite), fallocate (posix_fallocate,
 * fallocate) or mmap; of the calls of MIN bytes or more (default 0), the
 * first SKIP go through and every later one fails with ERRNO (ENOSPC,
 * EFBIG, EIO, ENOMEM or EDQUOT): with a MIN, a disk with room for small
 * files (a thread buffer's header page) but not large ones.  Only calls on
 * regular files fail: messages on a terminal or pipe still get out, and
 * anonymous mappings (malloc's) still work.  Counts are per process.
 * CALLSCOPE_FAIL_IO_IN=NAME limits the failures to the processes of that
 * program name (callscope, or the recorded program).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum call { CALL_WRITE, CALL_FALLOCATE, CALL_MMAP, NCALLS };

static const char *const call_names[NCALLS] = { "write", "fallocate", "mmap" };

struct rule {
	int armed;
	size_t min;
	long skip;
	int err;
	long seen;
};

static struct rule rules[NCALLS];
static int parsed;

static int errno_named(const char *s)
{
	static const struct { const char *name; int value; } known[] = {
		{ "ENOSPC", ENOSPC }, { "EFBIG", EFBIG }, { "EIO", EIO },
		{ "ENOMEM", ENOMEM }, { "EDQUOT", EDQUOT },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(s, known[i].name))
			return known[i].value;
	return EIO;
}

static void parse(void)
{
	const char *spec = getenv("CALLSCOPE_FAIL_IO");
	char buf[256], *save = NULL;

	const char *only = getenv("CALLSCOPE_FAIL_IO_IN");

	parsed = 1;
	if (!spec || strlen(spec) >= sizeof(buf) ||
	    (only && strcmp(only, program_invocation_short_name)))
		return;
	memcpy(buf, spec, strlen(spec) + 1);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *skip = strchr(item, ':');
		char *err = skip ? strchr(skip + 1, ':') : NULL;
		char *min = err ? strchr(err + 1, ':') : NULL;
		if (!err)
			continue;
		*skip++ = '\0';
		*err++ = '\0';
		if (min)
			*min++ = '\0';
		for (int c = 0; c < NCALLS; c++) {
			if (strcmp(item, call_names[c]))
				continue;
			rules[c].armed = 1;
			rules[c].skip = atol(skip);
			rules[c].err = errno_named(err);
			rules[c].min = min ? (size_t)atol(min) : 0;
		}
	}
}

static int is_regular(int fd)
{
	struct stat st;
	return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether this call of LEN bytes on FD is to fail; sets errno when it is. */
static int fails(enum call c, int fd, size_t len)
{
	if (!parsed)
		parse();
	struct rule *r = &rules[c];
	if (!r->armed || len < r->min || !is_regular(fd))
		return 0;
	if (__atomic_fetch_add(&r->seen, 1, __ATOMIC_RELAXED) < r->skip)
		return 0;
	errno = r->err;
	return 1;
}

static void *next(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);
	if (!fn)
		abort();
	return fn;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	if (fails(CALL_WRITE, fd, n))
		return -1;
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))next("write");
	return real(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	if (fails(CALL_WRITE, fd, n))
		return -1;
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))next("pwrite");
	return real(fd, buf, n, off);
}

/* stdio writes through libc's own write, which a preload cannot see */
size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	static size_t (*real)(const void *, size_t, size_t, FILE *);
	if (fails(CALL_WRITE, fileno(f), size * n))
		return 0;
	if (!real)
		real = (size_t (*)(const void *, size_t, size_t, FILE *))next("fwrite");
	return real(p, size, n, f);
}

int posix_fallocate(int fd, off_t off, off_t len)
{
	static int (*real)(int, off_t, off_t);
	int saved = errno;
	if (fails(CALL_FALLOCATE, fd, (size_t)len)) {
		int err = errno;
		errno = saved;	/* it returns the error, errno untouched */
		return err;
	}
	if (!real)
		real = (int (*)(int, off_t, off_t))next("posix_fallocate");
	return real(fd, off, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	static int (*real)(int, int, off_t, off_t);
	if (fails(CALL_FALLOCATE, fd, (size_t)len))
		return -1;
	if (!real)
		real = (int (*)(int, int, off_t, off_t))next("fallocate");
	return real(fd, mode, off, len);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	if (!(flags & MAP_ANONYMOUS) && fails(CALL_MMAP, fd, len))
		return MAP_FAILED;
	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))next("mmap");
	return real(addr, len, prot, flags, fd, off);
}
