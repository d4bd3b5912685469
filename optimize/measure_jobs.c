/*
 * The job runner of callscope optimize --measure.  See measure_jobs.h.
 *
 * Offset 0 is each binary as given; other offsets come from the user's
 * --relink command, which links the same layout with a padding object
 * (made here) in front of the code.  The runs go in parallel.
 */
#include "optimize/measure_jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "die.h"
#include "perf_paranoid.h"
#include "optimize/writers.h"
#include "xalloc.h"

#define PAD_SYMBOL OPT_PAD_SYMBOL
#define PAD_SECTION OPT_PAD_SECTION

/* The data cache and last level cache cachegrind simulates beside I1:
 * fixed, so that only the I1 geometry differs between runs. */
#define CG_D1 "--D1=32768,8,64"
#define CG_LL "--LL=8388608,16,64"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Removes the scratch directory DIR and what is in it. */
static void remove_dir(const char *dir)
{
	nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* The last non-empty line of the log at PATH, for error messages. */
char *measure_log_tail(const char *path)
{
	char line[512], last[512] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return xstrdup("");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] && strncmp(line, "==", 2))
			memcpy(last, line, sizeof(last));
	}
	fclose(f);
	return xstrdup(last);
}

/*
 * Starts ARGV with stdin from STDIN_PATH (NULL: /dev/null) and stdout and
 * stderr into LOG.  ENV are "NAME=VALUE" strings added to the environment.
 */
static pid_t spawn(char *const *argv, const char *stdin_path, const char *log, char **env)
{
	pid_t pid = fork();

	if (pid < 0)
		die("cannot start '%s': %s", argv[0], strerror(errno));
	if (pid)
		return pid;
	int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC);
	int out = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (in < 0 || out < 0)
		_exit(126);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	for (size_t i = 0; env && env[i]; i++)
		putenv(env[i]);
	execvp(argv[0], argv);
	dprintf(2, "callscope: cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int wait_for(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/* A path that execvp() will not look up in $PATH. */
static char *runnable(const char *path)
{
	return strchr(path, '/') ? xstrdup(path) : xasprintf("./%s", path);
}

/* ---- the hardware event ------------------------------------------------ */

static int perf_open(uint32_t type, uint64_t config, pid_t pid)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.inherit = 1;
	a.enable_on_exec = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

#define L1I_READ_MISS (PERF_COUNT_HW_CACHE_L1I | (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
		       (PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

int measure_hardware_available(char *why, size_t len)
{
	int fd = perf_open(PERF_TYPE_HW_CACHE, L1I_READ_MISS, 0);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	int e = errno;
	if (e == EACCES || e == EPERM) {
		char level[16] = "?";
		int v;
		if (perf_paranoid_read(&v) == 0)
			snprintf(level, sizeof(level), "%d", v);
		snprintf(why, len, "perf_event_paranoid is %s and forbids it; lower it or run "
			 "with CAP_PERFMON", level);
	} else if (e == ENOSYS) {
		snprintf(why, len, "the kernel has no perf_event_open");
	} else {
		snprintf(why, len, "this CPU or kernel does not count it (perf_event_open: %s), "
			 "as in most virtual machines", strerror(e));
	}
	return 0;
}

/* Runs ARGV once with the counters on; returns 0 or -1. */
static int hardware_run(char *const *argv, const char *stdin_path, const char *log,
			uint64_t *misses, uint64_t *instructions, int *status)
{
	int go[2];

	if (pipe2(go, O_CLOEXEC) != 0)
		die("cannot make a pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		die("cannot start '%s': %s", argv[0], strerror(errno));
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
		int out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (in < 0 || out < 0)
			_exit(126);
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(go[0]);
	/* Counting starts at the exec, so the fork and this setup are not counted. */
	int fm = perf_open(PERF_TYPE_HW_CACHE, L1I_READ_MISS, pid);
	int fi = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, pid);
	int ok = fm >= 0 && fi >= 0 && write(go[1], "g", 1) == 1;
	close(go[1]);
	*status = wait_for(pid);
	if (ok)
		ok = read(fm, misses, sizeof(*misses)) == sizeof(*misses) &&
		     read(fi, instructions, sizeof(*instructions)) == sizeof(*instructions);
	if (fm >= 0)
		close(fm);
	if (fi >= 0)
		close(fi);
	return ok ? 0 : -1;
}

/* ---- variants: the binaries at each code offset ----------------------- */

/* Makes an object of BYTES bytes of padding in its own code section. */
static char *make_pad(const struct measurement *m, uint64_t bytes)
{
	char *src = xasprintf("%s/pad-%llu.s", m->dir, (unsigned long long)bytes);
	char *obj = xasprintf("%s/pad-%llu.o", m->dir, (unsigned long long)bytes);
	char *log = xasprintf("%s/pad-%llu.log", m->dir, (unsigned long long)bytes);
	FILE *f = fopen(src, "w");

	if (!f)
		die("cannot write '%s': %s", src, strerror(errno));
	fprintf(f, "\t.section %s,\"ax\",@progbits\n\t.p2align 0\n\t.globl %s\n\t.hidden %s\n"
		   "\t.type %s,@function\n%s:\n\t.fill %llu,1,0xcc\n\t.size %s,%llu\n"
		   "\t.section .note.GNU-stack,\"\",@progbits\n",
		PAD_SECTION, PAD_SYMBOL, PAD_SYMBOL, PAD_SYMBOL, PAD_SYMBOL,
		(unsigned long long)bytes, PAD_SYMBOL, (unsigned long long)bytes);
	if (fclose(f) != 0)
		die("cannot write '%s': %s", src, strerror(errno));
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	char *argv[] = { (char *)cc, (char *)"-c", (char *)"-o", obj, src, NULL };
	int st = wait_for(spawn(argv, NULL, log, NULL));
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char *tail = measure_log_tail(log);
		die("cannot assemble the padding object with '%s': %s; set CC to a C compiler", cc,
		    tail);
	}
	free(src);
	free(log);
	return obj;
}

static void relink(struct measurement *m, struct variant *v, const char *pad)
{
	const struct measure_options *o = m->o;
	uint64_t bytes = o->offsets[v->offset];
	char *out = xasprintf("%s/bin%zu-%llu", m->dir, v->binary, (unsigned long long)bytes);
	char *log = xasprintf("%s/relink%zu-%llu.log", m->dir, v->binary, (unsigned long long)bytes);
	char *env[] = {
		xasprintf("CALLSCOPE_BINARY=%s", o->binaries[v->binary]),
		xasprintf("CALLSCOPE_INDEX=%zu", v->binary),
		xasprintf("CALLSCOPE_OUT=%s", out),
		xasprintf("CALLSCOPE_PAD=%llu", (unsigned long long)bytes),
		xasprintf("CALLSCOPE_PAD_OBJECT=%s", pad),
		xasprintf("CALLSCOPE_PAD_SYMBOL=%s", PAD_SYMBOL),
		xasprintf("CALLSCOPE_PAD_SECTION=%s", PAD_SECTION),
		NULL,
	};
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)o->relink, NULL };

	int st = wait_for(spawn(argv, NULL, log, env));
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char *tail = measure_log_tail(log);
		die("--relink failed for '%s' with %llu bytes of padding: %s; see '%s'",
		    o->binaries[v->binary], (unsigned long long)bytes, tail, log);
	}
	if (access(out, X_OK) != 0)
		die("--relink made no binary for '%s' with %llu bytes of padding: the command must "
		    "write $CALLSCOPE_OUT", o->binaries[v->binary], (unsigned long long)bytes);
	for (size_t i = 0; env[i]; i++)
		free(env[i]);
	free(log);
	v->path = out;
}

void measure_make_variants(struct measurement *m)
{
	const struct measure_options *o = m->o;
	char **pads = xcalloc(o->noffsets, sizeof(*pads));

	m->nvariants = o->nbinaries * o->noffsets;
	m->variants = xcalloc(m->nvariants, sizeof(*m->variants));
	for (size_t b = 0; b < o->nbinaries; b++)
		for (size_t j = 0; j < o->noffsets; j++) {
			struct variant *v = &m->variants[b * o->noffsets + j];
			v->binary = b;
			v->offset = j;
			if (!o->offsets[j]) {
				v->path = runnable(o->binaries[b]);
				continue;
			}
			if (!pads[j])
				pads[j] = make_pad(m, o->offsets[j]);
			if (isatty(2))
				fprintf(stderr, "callscope: relinking '%s' with %llu bytes of padding\n",
					o->binaries[b], (unsigned long long)o->offsets[j]);
			relink(m, v, pads[j]);
		}
	for (size_t j = 0; j < o->noffsets; j++)
		free(pads[j]);
	free(pads);
}

/* ---- runs ---------------------------------------------------------------- */

struct run *measure_add_run(struct measurement *m, size_t variant, size_t cache)
{
	ALLOC_GROW(m->runs, m->nruns + 1, m->runs_alloc);
	struct run *r = &m->runs[m->nruns];
	memset(r, 0, sizeof(*r));
	r->variant = variant;
	r->cache = cache;
	r->out = xasprintf("%s/cg%zu.out", m->dir, m->nruns);
	r->log = xasprintf("%s/run%zu.log", m->dir, m->nruns);
	m->nruns++;
	return r;
}

static pid_t start_cachegrind(struct measurement *m, struct run *r)
{
	const struct measure_options *o = m->o;
	const struct variant *v = &m->variants[r->variant];
	char **argv = xcalloc(12 + o->nargs, sizeof(*argv));
	size_t n = 0;
	char *i1 = NULL;

	argv[n++] = (char *)"valgrind";
	argv[n++] = (char *)"--tool=cachegrind";
	if (r->cache == NO_CACHE) {
		argv[n++] = (char *)"--cache-sim=no";
	} else {
		const struct cache_spec *c = &o->caches[r->cache];
		i1 = xasprintf("--I1=%llu,%u,%u", (unsigned long long)c->size, c->ways, c->line);
		argv[n++] = (char *)"--cache-sim=yes";
		argv[n++] = i1;
		argv[n++] = (char *)CG_D1;
		argv[n++] = (char *)CG_LL;
	}
	argv[n++] = (char *)"--branch-sim=no";
	argv[n++] = (char *)"--demangle=no";
	char *outopt = xasprintf("--cachegrind-out-file=%s", r->out);
	argv[n++] = outopt;
	argv[n++] = v->path;
	for (size_t i = 0; i < o->nargs; i++)
		argv[n++] = o->args[i];
	argv[n] = NULL;
	pid_t pid = spawn(argv, o->stdin_path, r->log, NULL);
	free(i1);
	free(outopt);
	free(argv);
	return pid;
}

void measure_run_all(struct measurement *m)
{
	size_t next = 0, running = 0, done = 0;
	unsigned jobs = m->o->jobs ? m->o->jobs : 1;

	while (done < m->nruns) {
		while (running < jobs && next < m->nruns) {
			m->runs[next].pid = start_cachegrind(m, &m->runs[next]);
			next++;
			running++;
		}
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			die("waiting for cachegrind: %s", strerror(errno));
		}
		for (size_t i = 0; i < next; i++)
			if (m->runs[i].pid == pid && !m->runs[i].done) {
				m->runs[i].status = status;
				m->runs[i].done = 1;
				running--;
				done++;
				if (!isatty(2) || m->o->json)
					break;
				fprintf(stderr, "\rcallscope: %zu of %zu runs done", done, m->nruns);
				if (done == m->nruns)
					fputc('\n', stderr);
				break;
			}
	}
	for (size_t i = 0; i < m->nruns; i++) {
		struct run *r = &m->runs[i];
		if (access(r->out, R_OK) != 0) {
			char *tail = measure_log_tail(r->log);
			die("cachegrind made no output for '%s': %s; see '%s'",
			    m->variants[r->variant].path, tail, r->log);
		}
		if (cg_load(r->out, &r->result) != 0)
			exit(EXIT_FATAL);
		if (r->cache != NO_CACHE && !r->result.has_i1)
			die("cachegrind did not simulate the cache in '%s'; see '%s'", r->out, r->log);
	}
}


void measure_require_valgrind(void)
{
	char *argv[] = { (char *)"valgrind", (char *)"--version", NULL };
	int st = wait_for(spawn(argv, NULL, "/dev/null", NULL));

	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("valgrind is not installed; install it (Debian: apt-get install valgrind) to "
		    "simulate the caches and count the pages");
}

void measure_scratch_make(struct measurement *m)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	m->dir = xasprintf("%s/callscope-measure.XXXXXX", tmp);
	if (!mkdtemp(m->dir))
		die("cannot make a scratch directory in '%s': %s", tmp, strerror(errno));
}

void measure_count_hardware(const struct measurement *m, size_t v, uint64_t *misses)
{
	const struct measure_options *o = m->o;
	char *log = xasprintf("%s/hw%zu.log", m->dir, v);
	char **argv = xcalloc(o->nargs + 2, sizeof(*argv));

	argv[0] = m->variants[v].path;
	for (size_t i = 0; i < o->nargs; i++)
		argv[i + 1] = o->args[i];
	for (int rep = 0; rep < o->repeat; rep++) {
		uint64_t instructions;
		int status;
		if (hardware_run(argv, o->stdin_path, log, &misses[rep], &instructions, &status))
			die("cannot count L1-icache-load-misses of '%s'", argv[0]);
	}
	free(argv);
	free(log);
}

void measurement_release(struct measurement *m)
{
	for (size_t r = 0; r < m->nruns; r++) {
		cg_release(&m->runs[r].result);
		free(m->runs[r].out);
		free(m->runs[r].log);
	}
	free(m->runs);
	for (size_t v = 0; v < m->nvariants; v++)
		free(m->variants[v].path);
	free(m->variants);
	remove_dir(m->dir);
	free(m->dir);
}
