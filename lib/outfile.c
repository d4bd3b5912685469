/* Output files written under a temporary name.  See outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "die.h"
#include "xalloc.h"

/* The one wording of a failed write, by where it went. */
static int write_error(const struct outfile *o, int err)
{
	if (!o->tmp)
		return error("cannot write to standard output: %s", strerror(err));
	return error("cannot write '%s': %s; nothing was written there: make room, or give "
		     "another path", o->path, strerror(err));
}

static void release(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->f = NULL;
}

int outfile_open(struct outfile *o, const char *path, unsigned flags)
{
	o->path = xstrdup(path);
	o->tmp = NULL;
	o->f = NULL;
	if ((flags & OUTFILE_DASH_IS_STDOUT) && !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	/* the rename at the end would put a regular file in its place */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		error("cannot write '%s': it is not a regular file; give another path%s", path,
		      flags & OUTFILE_DASH_IS_STDOUT ? " (or '-' for standard output)" : "");
		release(o);
		return -1;
	}
	o->tmp = xasprintf("%s.tmp-XXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd >= 0 && (flags & OUTFILE_READABLE)) {
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o->f) {
		int err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		error("cannot write '%s': %s; check the directory exists and is writable", path,
		      strerror(err));
		release(o);
		return -1;
	}
	return 0;
}

int outfile_close(struct outfile *o)
{
	if (!o->f)
		return 0;
	int bad = fflush(o->f) != 0 || ferror(o->f);
	int saved = errno;
	if (o->tmp) {
		if (fclose(o->f) != 0 && !bad) {
			bad = 1;
			saved = errno;
		}
		o->f = NULL;
	}
	errno = saved;
	return bad ? -1 : 0;
}

int outfile_commit_quiet(struct outfile *o)
{
	int rc = outfile_close(o);
	if (o->tmp && (rc != 0 || rename(o->tmp, o->path) != 0)) {
		int saved = errno;
		unlink(o->tmp);
		errno = saved;
		rc = -1;
	}
	release(o);
	return rc;
}

int outfile_commit(struct outfile *o)
{
	if (outfile_close(o) != 0)
		return outfile_fail(o, errno);
	if (o->tmp && rename(o->tmp, o->path) != 0)
		return outfile_fail(o, errno);
	release(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->tmp) {
		if (o->f)
			fclose(o->f);
		unlink(o->tmp);
	}
	release(o);
}

int outfile_fail(struct outfile *o, int err)
{
	write_error(o, err);
	outfile_abort(o);
	return -1;
}
