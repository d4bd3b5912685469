#include "cli/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "die.h"
#include "xalloc.h"

void outfile_open(struct outfile *o, const char *path)
{
	o->path = xstrdup(path);
	o->tmp = NULL;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return;
	}
	/* the rename at the end would put a regular file in its place */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		die("cannot write '%s': it is not a regular file; give another path "
		    "(or '-' for standard output)", path);
	o->tmp = xasprintf("%s.tmp-XXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0)
		die("cannot write '%s': %s; check the directory exists and is writable", path,
		    strerror(errno));
	o->f = fdopen(fd, "w");
	if (!o->f)
		die("cannot write '%s': %s", path, strerror(errno));
}

static void release(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->f = NULL;
}

int outfile_commit(struct outfile *o)
{
	int rc = 0;

	if (!o->tmp) {
		if (fflush(o->f) != 0 || ferror(o->f))
			rc = error("cannot write the output: %s", strerror(errno));
		release(o);
		return rc;
	}
	int bad = fflush(o->f) != 0 || ferror(o->f);
	int saved = errno;
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	if (bad || rename(o->tmp, o->path) != 0) {
		rc = error("cannot write '%s': %s", o->path, strerror(bad ? saved : errno));
		unlink(o->tmp);
	}
	release(o);
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->tmp) {
		fclose(o->f);
		unlink(o->tmp);
	}
	release(o);
}
