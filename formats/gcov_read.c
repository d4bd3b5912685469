#include "formats/gcov_read.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"
#include "xalloc.h"

/* Everything the binary holds that ends in ".gcda": libgcov's output
 * paths, one per object built with --coverage.  Malloc'd, *N of them. */
static char **gcda_names(const char *bin, size_t size, size_t *n)
{
	char **names = NULL;
	size_t alloc = 0;

	*n = 0;
	for (const char *p = bin; (p = memmem(p, size - (size_t)(p - bin), ".gcda", 6)); p += 6) {
		const char *start = p;
		while (start > bin && start[-1] >= ' ' && start[-1] < 0x7f)
			start--;
		if (start == p)
			continue;
		ALLOC_GROW(names, *n + 1, alloc);
		names[(*n)++] = xstrndup(start, (size_t)(p - start) + 5);
	}
	return names;
}

/* A temporary file for one of gcov's outputs; -1 after an error line. */
static int temp_file(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, len, "%s/callscope-gcov.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		return error("cannot create a temporary file in '%s': %s", dir && *dir ? dir : "/tmp",
			     strerror(errno));
	unlink(path);
	return fd;
}

/* Runs gcov on GCDA; *OUT and *ERR get its stdout and stderr (malloc'd,
 * NUL-ended).  Returns gcov's exit status, or -1 after an error line. */
static int run_gcov(const char *gcda, char **out, char **err)
{
	char opath[64], epath[64];
	int ofd = temp_file(opath, sizeof(opath)), efd = ofd < 0 ? -1 : temp_file(epath, sizeof(epath));
	int status = -1;

	*out = *err = NULL;
	if (ofd < 0 || efd < 0)
		goto done;
	pid_t pid = fork();
	if (pid < 0) {
		error("cannot start gcov: %s", strerror(errno));
		goto done;
	}
	if (pid == 0) {
		dup2(ofd, 1);
		dup2(efd, 2);
		execlp("gcov", "gcov", "--json-format", "--stdout", gcda, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		error("cannot run gcov, which reads the counts; install gcc (it comes with it)");
		status = -1;
		goto done;
	}
	size_t n;
	char *o = NULL, *e = NULL;
	lseek(ofd, 0, SEEK_SET);
	lseek(efd, 0, SEEK_SET);
	/* read through /proc so the unlinked files can still be read whole */
	char p1[64], p2[64];
	snprintf(p1, sizeof(p1), "/proc/self/fd/%d", ofd);
	snprintf(p2, sizeof(p2), "/proc/self/fd/%d", efd);
	if (read_file(p1, 0, &o, &n) != 0 || read_file(p2, 0, &e, &n) != 0) {
		free(o);
		error("cannot read gcov's output: %s", strerror(errno));
		status = -1;
		goto done;
	}
	*out = o;
	*err = e;
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
done:
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	return status;
}

static struct gcov_file *file_for(struct gcov_data *d, const char *path)
{
	for (size_t i = 0; i < d->nfiles; i++)
		if (!strcmp(d->files[i].path, path))
			return &d->files[i];
	ALLOC_GROW(d->files, d->nfiles + 1, d->files_alloc);
	struct gcov_file *f = &d->files[d->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	return f;
}

/* Adds the "files" of gcov's JSON TEXT (about GCDA) to D; -1 after an
 * error line. */
static int add_json(struct gcov_data *d, const char *gcda, const char *text)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr);
	json_t *files = root ? json_object_get(root, "files") : NULL;

	if (!json_is_array(files)) {
		json_decref(root);
		return error("gcov's report on '%s' cannot be read (line %d: %s)", gcda, jerr.line,
			     root ? "no \"files\"" : jerr.text);
	}
	const char *cwd = json_string_value(json_object_get(root, "current_working_directory"));
	size_t i, k;
	json_t *jf, *jl;
	json_array_foreach(files, i, jf) {
		const char *name = json_string_value(json_object_get(jf, "file"));
		if (!name)
			continue;
		char *path = name[0] == '/' || !cwd ? xstrdup(name) : xasprintf("%s/%s", cwd, name);
		struct gcov_file *f = file_for(d, path);
		free(path);
		json_array_foreach(json_object_get(jf, "lines"), k, jl) {
			json_int_t line = json_integer_value(json_object_get(jl, "line_number"));
			json_int_t count = json_integer_value(json_object_get(jl, "count"));
			const char *fn = json_string_value(json_object_get(jl, "function_name"));
			if (line <= 0 || count < 0)
				continue;
			ALLOC_GROW(f->lines, f->nlines + 1, f->lines_alloc);
			f->lines[f->nlines++] = (struct gcov_line){
				(int)line, (uint64_t)count,
				json_is_true(json_object_get(jl, "unexecuted_block")),
				fn ? xstrdup(fn) : NULL,
			};
		}
	}
	json_decref(root);
	return 0;
}

/* One line of gcov's complaints, or NULL: data that no longer matches. */
static const char *stale_reason(const char *err)
{
	if (strstr(err, "source file is newer"))
		return "a source file changed since the program was built";
	if (strstr(err, "stamp mismatch"))
		return "the program was rebuilt since it ran";
	return NULL;
}

int gcov_read_program(const char *prog, struct gcov_data *out)
{
	char *bin;
	size_t size, n;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (read_file(prog, 0, &bin, &size) != 0)
		return error("cannot read '%s': %s", prog, strerror(errno));
	char **gcdas = gcda_names(bin, size, &n);
	free(bin);
	if (!n)
		rc = error("'%s' holds no line counts: build it with --coverage (beside -pg or "
			   "-finstrument-functions) and run it", prog);
	for (size_t i = 0; i < n && !rc; i++) {
		char *json, *err;
		if (access(gcdas[i], R_OK) != 0) {
			rc = error("no counts in '%s' yet: run '%s' first (it writes them when it exits)",
				   gcdas[i], prog);
			break;
		}
		int status = run_gcov(gcdas[i], &json, &err);
		if (status < 0) {
			rc = -1;
			break;
		}
		const char *stale = stale_reason(err);
		if (stale)
			rc = error("the counts in '%s' are stale: %s; build and run it again", gcdas[i],
				   stale);
		else if (status != 0)
			rc = error("gcov cannot read '%s': %.*s", gcdas[i], (int)strcspn(err, "\n"), err);
		else
			rc = add_json(out, gcdas[i], json);
		free(json);
		free(err);
	}
	for (size_t i = 0; i < n; i++)
		free(gcdas[i]);
	free(gcdas);
	return rc;
}

int gcov_program_has_counts(const char *prog)
{
	char *bin;
	size_t size, n;

	if (read_file(prog, 0, &bin, &size) != 0)
		return 0;
	char **gcdas = gcda_names(bin, size, &n);
	free(bin);
	for (size_t i = 0; i < n; i++)
		free(gcdas[i]);
	free(gcdas);
	return n > 0;
}

static const char *last_component(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

const struct gcov_file *gcov_file_of(const struct gcov_data *d, const char *path)
{
	const struct gcov_file *by_name = NULL;
	size_t named = 0;

	for (size_t i = 0; i < d->nfiles; i++) {
		if (!strcmp(d->files[i].path, path))
			return &d->files[i];
		if (!strcmp(last_component(d->files[i].path), last_component(path))) {
			by_name = &d->files[i];
			named++;
		}
	}
	return named == 1 ? by_name : NULL;
}

void gcov_data_release(struct gcov_data *d)
{
	for (size_t i = 0; i < d->nfiles; i++) {
		for (size_t k = 0; k < d->files[i].nlines; k++)
			free(d->files[i].lines[k].function);
		free(d->files[i].lines);
		free(d->files[i].path);
	}
	free(d->files);
	memset(d, 0, sizeof(*d));
}
