/*
 * callscope optimize --measure.  See measure.h.
 *
 * The work is a list of variants (binary x code offset) and a list of
 * runs over them (one per cache simulated, or hardware-counted runs).
 * Offset 0 is each binary as given; other offsets come from the user's
 * --relink command, which links the same layout with a padding object
 * (made here) in front of the code.  The runs go in parallel; the numbers
 * are gathered per binary and cache as mean and range over the offsets.
 */
#include "optimize/measure.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
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
#include "json.h"
#include "optimize/cachegrind.h"
#include "optimize/elf_funcs.h"
#include "optimize/pages.h"
#include "optimize/writers.h"
#include "xalloc.h"

#define PAD_SYMBOL OPT_PAD_SYMBOL
#define PAD_SECTION OPT_PAD_SECTION
#define PAGES_SHARE 0.9

/* The data cache and last level cache cachegrind simulates beside I1:
 * fixed, so that only the I1 geometry differs between runs. */
#define CG_D1 "--D1=32768,8,64"
#define CG_LL "--LL=8388608,16,64"

struct variant {
	size_t binary, offset;	/* indices into the options' lists */
	char *path;		/* owned */
	long moved;		/* bytes its binary's hottest function moved */
	int moved_known;
};

struct run {
	size_t variant;
	size_t cache;		/* index into the caches, or NO_CACHE: instructions only */
	char *out, *log;	/* owned paths */
	pid_t pid;
	int status;
	int done;
	struct cg_result result;
};

#define NO_CACHE ((size_t)-1)

struct measurement {
	const struct measure_options *o;
	char *dir;		/* scratch directory, owned */
	int hardware;
	struct variant *variants;
	size_t nvariants;
	struct run *runs;
	size_t nruns, runs_alloc;
};

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
static char *log_tail(const char *path)
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

/* 1 if the event counts here; else 0 with the reason in WHY. */
static int hardware_available(char *why, size_t len)
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
		char *tail = log_tail(log);
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
		char *tail = log_tail(log);
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

static void make_variants(struct measurement *m)
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

static struct run *add_run(struct measurement *m, size_t variant, size_t cache)
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

/* Runs every cachegrind run, JOBS at a time. */
static void run_all(struct measurement *m)
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
			char *tail = log_tail(r->log);
			die("cachegrind made no output for '%s': %s; see '%s'",
			    m->variants[r->variant].path, tail, r->log);
		}
		if (cg_load(r->out, &r->result) != 0)
			exit(EXIT_FATAL);
		if (r->cache != NO_CACHE && !r->result.has_i1)
			die("cachegrind did not simulate the cache in '%s'; see '%s'", r->out, r->log);
	}
}

/* ---- numbers ------------------------------------------------------------- */

struct spread {
	double mean, min, max;
	size_t n;
};

static void spread_add(struct spread *s, double v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->mean = (s->mean * (double)s->n + v) / (double)(s->n + 1);
	s->n++;
}

struct binary_numbers {
	struct spread misses[MEASURE_MAX_CACHES];	/* hardware: [0] only */
	struct spread instructions;
	struct page_count pages;
	int pages_known;
	int status;		/* exit status of the program (offset 0) */
	const char *hottest;	/* borrowed from the elf table below */
	char *tail;		/* last line of its output when it failed; owned */
	struct elf_funcs funcs;
};

/* Thousands separated: "1,234,567". */
static const char *grouped(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, k = 0;

	snprintf(digits, sizeof(digits), "%.0f", v < 0 ? 0 : v);
	n = strlen(digits);
	for (size_t i = 0; i < n && k + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = 0;
	return buf;
}

static double change(double now, double before)
{
	return before > 0 ? 100.0 * (now - before) / before : 0.0;
}

static const char *short_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static void print_table(const struct measurement *m, const struct binary_numbers *nb,
			size_t ncol, char labels[][32])
{
	const struct measure_options *o = m->o;
	size_t rows = o->nbinaries + 1, cols = ncol + 3;
	char **cell = xcalloc(rows * cols, sizeof(*cell));
	size_t *width = xcalloc(cols, sizeof(*width));
	char a[40], b[40], c[40];

	/* Cells first, so every column gets the width of its widest cell. */
	cell[0] = xstrdup("binary");
	cell[1] = xstrdup("instructions");
	for (size_t k = 0; k < ncol; k++)
		cell[2 + k] = xasprintf("%s mean (range)", labels[k]);
	cell[cols - 1] = xstrdup("pages for 90%");
	for (size_t i = 0; i < o->nbinaries; i++) {
		char **row = cell + (i + 1) * cols;
		row[0] = xstrdup(short_name(o->binaries[i]));
		row[1] = xstrdup(grouped(nb[i].instructions.mean, a, sizeof(a)));
		for (size_t k = 0; k < ncol; k++) {
			const struct spread *s = &nb[i].misses[k];
			char delta[24] = "";
			if (i)
				snprintf(delta, sizeof(delta), " %+.1f%%",
					 change(s->mean, nb[0].misses[k].mean));
			if (s->n > 1)
				row[2 + k] = xasprintf("%s (%s-%s)%s", grouped(s->mean, a, sizeof(a)),
						       grouped(s->min, b, sizeof(b)),
						       grouped(s->max, c, sizeof(c)), delta);
			else
				row[2 + k] = xasprintf("%s%s", grouped(s->mean, a, sizeof(a)), delta);
		}
		row[cols - 1] = nb[i].pages_known ?
			xasprintf("%zu of %zu", nb[i].pages.pages, nb[i].pages.touched) : xstrdup("n/a");
	}
	for (size_t r = 0; r < rows; r++)
		for (size_t k = 0; k < cols; k++)
			if (strlen(cell[r * cols + k]) > width[k])
				width[k] = strlen(cell[r * cols + k]);
	for (size_t r = 0; r < rows; r++) {
		for (size_t k = 0; k < cols; k++) {
			const char *t = cell[r * cols + k];
			/* Names left, numbers right. */
			if (k == 0)
				printf("%-*s", (int)width[k], t);
			else if (k == 1)
				printf("  %*s", (int)width[k], t);
			else if (k + 1 == cols)
				printf("  %s", t);
			else
				printf("  %-*s", (int)width[k], t);
			free(cell[r * cols + k]);
		}
		printf("\n");
	}
	free(cell);
	free(width);
}

/*
 * At a single code offset there is no range to compare; simulated misses
 * of one layout move by this share when its code merely shifts by a few
 * bytes, so a smaller difference says nothing about the order.
 */
#define ONE_OFFSET_SWING 0.30

/* 1 better, -1 worse, 0 within the offsets' range (or one offset's swing). */
static int compare(const struct spread *now, const struct spread *before)
{
	if (now->n == 1 && before->n == 1) {
		if (now->mean < before->mean * (1.0 - ONE_OFFSET_SWING))
			return 1;
		if (now->mean > before->mean * (1.0 + ONE_OFFSET_SWING))
			return -1;
		return 0;
	}
	if (now->max < before->min)
		return 1;
	if (now->min > before->max)
		return -1;
	return 0;
}

static void print_verdict(const struct measurement *m, const struct binary_numbers *nb,
			  size_t i, size_t ncol, char labels[][32])
{
	const struct measure_options *o = m->o;
	const char *old = short_name(o->binaries[0]), *now = short_name(o->binaries[i]);
	int better = 0, worse = 0;
	char text[1024];
	size_t used = 0;

	text[0] = 0;
	for (size_t k = 0; k < ncol && used < sizeof(text); k++) {
		const struct spread *s = &nb[i].misses[k], *base = &nb[0].misses[k];
		int c = compare(s, base);
		double d = change(s->mean, base->mean);
		better += c > 0;
		worse += c < 0;
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%.0f%% %s %s misses%s",
					 k ? ", " : "", fabs(d), d <= 0 ? "fewer" : "more", labels[k],
					 c ? "" : s->n == 1 && base->n == 1 ?
					 " (within what one code offset can swing)" :
					 " (within the offsets' range)");
	}
	if (used < sizeof(text) && nb[i].pages_known && nb[0].pages_known)
		snprintf(text + used, sizeof(text) - used, "; 90%% of the executed instructions in "
			 "%zu pages against %zu", nb[i].pages.pages, nb[0].pages.pages);
	if (better && !worse)
		printf("verdict: %s is better than %s: %s\n", now, old, text);
	else if (worse && !better)
		printf("verdict: %s is worse than %s: %s\n", now, old, text);
	else if (better)
		printf("verdict: %s is better than %s on some caches and worse on others: %s\n", now,
		       old, text);
	else
		printf("verdict: no clear difference between %s and %s: %s\n", now, old, text);
}

static void print_json(const struct measurement *m, const struct binary_numbers *nb,
		       size_t ncol, char labels[][32])
{
	const struct measure_options *o = m->o;
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_kv_string(&j, "method", m->hardware ? "hardware" : "cachegrind");
	json_key(&j, "offsets");
	json_array_begin(&j);
	for (size_t k = 0; k < o->noffsets; k++)
		json_u64(&j, o->offsets[k]);
	json_array_end(&j);
	json_key(&j, "binaries");
	json_array_begin(&j);
	for (size_t i = 0; i < o->nbinaries; i++) {
		json_object_begin(&j);
		json_kv_string(&j, "path", o->binaries[i]);
		json_kv_double(&j, "instructions", nb[i].instructions.mean);
		json_kv_u64(&j, "exit_status", (uint64_t)nb[i].status);
		if (nb[i].pages_known) {
			json_kv_u64(&j, "pages90", nb[i].pages.pages);
			json_kv_u64(&j, "pages_touched", nb[i].pages.touched);
		}
		json_key(&j, "moved");
		json_array_begin(&j);
		for (size_t k = 0; k < o->noffsets; k++) {
			const struct variant *v = &m->variants[i * o->noffsets + k];
			if (v->moved_known)
				json_i64(&j, v->moved);
			else
				json_string(&j, NULL);
		}
		json_array_end(&j);
		json_key(&j, "caches");
		json_array_begin(&j);
		for (size_t k = 0; k < ncol; k++) {
			const struct spread *s = &nb[i].misses[k];
			json_object_begin(&j);
			json_kv_string(&j, "cache", labels[k]);
			json_kv_double(&j, "mean", s->mean);
			json_kv_double(&j, "min", s->min);
			json_kv_double(&j, "max", s->max);
			json_kv_double(&j, "change_pct", change(s->mean, nb[0].misses[k].mean));
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

/*
 * Fills the pages of binary I and how far each of its variants moved its
 * hottest function, from the output BASE of its first variant.
 */
static void locate(struct measurement *m, struct binary_numbers *nb, size_t i,
		   const struct cg_result *base)
{
	const struct measure_options *o = m->o;
	size_t v0 = i * o->noffsets;

	if (elf_funcs_load(m->variants[v0].path, &nb[i].funcs) != 0)
		return;
	pages_count(&nb[i].funcs, base, PAGES_SHARE, &nb[i].pages);
	nb[i].pages_known = 1;
	long hot = pages_hottest(&nb[i].funcs, base);
	if (hot < 0)
		return;
	nb[i].hottest = nb[i].funcs.funcs[hot].name;
	uint64_t addr0 = nb[i].funcs.funcs[hot].addr;
	for (size_t k = 0; k < o->noffsets; k++) {
		struct variant *v = &m->variants[v0 + k];
		struct elf_funcs vf;
		if (elf_funcs_load(v->path, &vf) != 0)
			continue;
		for (size_t f = 0; f < vf.n; f++)
			if (!strcmp(vf.funcs[f].name, nb[i].hottest)) {
				v->moved = (long)(vf.funcs[f].addr - addr0) + (long)o->offsets[0];
				v->moved_known = 1;
				break;
			}
		elf_funcs_release(&vf);
	}
}

int measure_run(const struct measure_options *opts)
{
	struct measure_options o = *opts;
	struct measurement m;
	char why[256], labels[MEASURE_MAX_CACHES][32];

	memset(&m, 0, sizeof(m));
	m.o = &o;
	if (!o.noffsets) {
		static const uint64_t def[] = { 0, 1040, 2080, 3120 };
		o.noffsets = o.relink ? 4 : 1;
		memcpy(o.offsets, def, o.noffsets * sizeof(*def));
	} else if (!o.relink && (o.noffsets > 1 || o.offsets[0])) {
		usage_die("--offsets needs --relink: the command that links a binary with padding");
	}
	/* A cache geometry the user names can only be simulated, and the
	 * hardware event would fill just one column where the caller asked
	 * for several (a script reading caches[1] would find nothing). */
	if (o.ncaches)
		o.simulate = 1;
	if (!o.ncaches) {
		cache_parse_spec("8K,2,32", &o.caches[0], &(const char *){ NULL });
		cache_host_l1i(&o.caches[1]);
		o.ncaches = o.caches[1].size == o.caches[0].size && o.caches[1].ways == o.caches[0].ways &&
			    o.caches[1].line == o.caches[0].line ? 1 : 2;
	}
	if (!o.jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o.jobs = n > 0 ? (unsigned)n : 1;
	}
	for (size_t i = 0; i < o.nbinaries; i++)
		if (access(o.binaries[i], X_OK) != 0)
			die("cannot run '%s': %s", o.binaries[i], strerror(errno));
	if (o.stdin_path && access(o.stdin_path, R_OK) != 0)
		die("cannot read the input '%s': %s", o.stdin_path, strerror(errno));

	m.hardware = !o.simulate && hardware_available(why, sizeof(why));
	if (!m.hardware && !o.simulate)
		fprintf(stderr, "callscope: the hardware event L1-icache-load-misses is not available "
			"here: %s; simulating the caches with cachegrind instead\n", why);
	{
		char *argv[] = { (char *)"valgrind", (char *)"--version", NULL };
		int st = wait_for(spawn(argv, NULL, "/dev/null", NULL));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			die("valgrind is not installed; install it (Debian: apt-get install valgrind) to "
			    "simulate the caches and count the pages");
	}

	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	m.dir = xasprintf("%s/callscope-measure.XXXXXX", tmp);
	if (!mkdtemp(m.dir))
		die("cannot make a scratch directory in '%s': %s", tmp, strerror(errno));

	make_variants(&m);

	/* Cachegrind: every cache at every offset, or (hardware) instructions per
	 * function at offset 0 for the pages. */
	size_t ncol = m.hardware ? 1 : o.ncaches;
	for (size_t k = 0; k < ncol; k++) {
		if (m.hardware)
			snprintf(labels[k], sizeof(labels[k]), "L1-icache-load-misses");
		else
			snprintf(labels[k], sizeof(labels[k]), "I1 %s",
				 cache_spec_label(&o.caches[k], why, sizeof(why)));
	}
	for (size_t v = 0; v < m.nvariants; v++) {
		if (m.hardware) {
			if (!m.variants[v].offset || o.noffsets == 1)
				add_run(&m, v, NO_CACHE);
			continue;
		}
		for (size_t k = 0; k < o.ncaches; k++)
			add_run(&m, v, k);
	}
	run_all(&m);

	struct binary_numbers *nb = xcalloc(o.nbinaries, sizeof(*nb));
	for (size_t r = 0; r < m.nruns; r++) {
		const struct run *run = &m.runs[r];
		const struct variant *v = &m.variants[run->variant];
		struct binary_numbers *b = &nb[v->binary];
		if (run->cache != NO_CACHE)
			spread_add(&b->misses[run->cache], (double)run->result.i1_misses);
		if (run->cache == 0 || run->cache == NO_CACHE)
			spread_add(&b->instructions, (double)run->result.ir);
		if (v->offset == 0 && (run->cache == 0 || run->cache == NO_CACHE)) {
			b->status = WIFEXITED(run->status) ? WEXITSTATUS(run->status) : 128 + WTERMSIG(run->status);
			if (b->status && !b->tail)
				b->tail = log_tail(run->log);
			locate(&m, nb, v->binary, &run->result);
		}
	}
	if (m.hardware) {
		for (size_t v = 0; v < m.nvariants; v++) {
			struct binary_numbers *b = &nb[m.variants[v].binary];
			char *log = xasprintf("%s/hw%zu.log", m.dir, v);
			char **argv = xcalloc(o.nargs + 2, sizeof(*argv));
			argv[0] = m.variants[v].path;
			for (size_t i = 0; i < o.nargs; i++)
				argv[i + 1] = o.args[i];
			for (int rep = 0; rep < o.repeat; rep++) {
				uint64_t misses, instructions;
				int status;
				if (hardware_run(argv, o.stdin_path, log, &misses, &instructions, &status))
					die("cannot count L1-icache-load-misses of '%s'", argv[0]);
				spread_add(&b->misses[0], (double)misses);
			}
			free(argv);
			free(log);
		}
	}

	for (size_t i = 0; i < o.nbinaries; i++)
		if (nb[i].status)
			warning("'%s' exited with status %d under cachegrind (%s); are its arguments "
				"right?", o.binaries[i], nb[i].status, nb[i].tail ? nb[i].tail : "");
	for (size_t i = 1; i < o.nbinaries; i++) {
		if (nb[i].status != nb[0].status)
			warning("'%s' exited with %d and '%s' with %d: the runs may not have done the "
				"same work", o.binaries[0], nb[0].status, o.binaries[i], nb[i].status);
		double d = change(nb[i].instructions.mean, nb[0].instructions.mean);
		if (fabs(d) > 1.0)
			warning("'%s' executed %+.1f%% instructions against '%s': not the same work; "
				"compare builds of one program on one input", o.binaries[i], d,
				o.binaries[0]);
	}
	for (size_t v = 0; v < m.nvariants; v++) {
		const struct variant *x = &m.variants[v];
		uint64_t want = o.offsets[x->offset];
		if (x->moved_known && (uint64_t)x->moved != want && want)
			warning("relinked with %llu bytes of padding, '%s' moved its hottest function "
				"'%s' by %ld bytes: the padding must come before the hot code (see "
				"docs/optimize.md)", (unsigned long long)want, o.binaries[x->binary],
				nb[x->binary].hottest, x->moved);
	}

	if (o.json) {
		print_json(&m, nb, ncol, labels);
	} else {
		if (m.hardware)
			printf("L1-icache-load-misses counted by the CPU, %d runs", o.repeat);
		else
			printf("I1 misses simulated by cachegrind");
		printf(" at %zu code offset%s (", o.noffsets, o.noffsets > 1 ? "s" : "");
		for (size_t k = 0; k < o.noffsets; k++)
			printf("%s%llu", k ? ", " : "", (unsigned long long)o.offsets[k]);
		printf(" bytes of padding): mean (range)\n\n");
		print_table(&m, nb, ncol, labels);
		if (o.noffsets == 1)
			printf("\nnote: one code offset only; simulated misses swing by tens of percent "
			       "when code moves by a few bytes: give --relink to measure several\n");
		printf("\n");
		for (size_t i = 1; i < o.nbinaries; i++)
			print_verdict(&m, nb, i, ncol, labels);
	}

	for (size_t i = 0; i < o.nbinaries; i++) {
		elf_funcs_release(&nb[i].funcs);
		free(nb[i].tail);
	}
	free(nb);
	for (size_t r = 0; r < m.nruns; r++) {
		cg_release(&m.runs[r].result);
		free(m.runs[r].out);
		free(m.runs[r].log);
	}
	free(m.runs);
	for (size_t v = 0; v < m.nvariants; v++)
		free(m.variants[v].path);
	free(m.variants);
	remove_dir(m.dir);
	free(m.dir);
	return 0;
}
