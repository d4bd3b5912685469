/*
 * callscope top PID [--interval SECONDS] [--count N] [--lines N]
 *
 * A flat profile of the last SECONDS of a running recorded program,
 * refreshed until interrupted: every interval a snapshot is taken through
 * the control socket (as `live PID snapshot` does) and the previous one's
 * per-function sums are subtracted, so each screen shows only what the
 * program did in that interval.  Plain text; on a terminal each screen
 * replaces the last.  See docs/top.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/demangle_option.h"
#include "cli/live_socket.h"
#include "cli/live_unreachable.h"
#include "load/load.h"
#include "model/profile.h"
#include "die.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope top PID [options]\n"
	"\n"
	"  -i, --interval SECONDS  length of each window (default 2)\n"
	"  -n, --count N           stop after N screens (default: until interrupted)\n"
	"  -l, --lines N           functions per screen (default 20)\n"
	NO_DEMANGLE_HELP;

/* One function's sums at the previous snapshot. */
struct top_entry {
	char *key;		/* "symbol\tobject" */
	uint64_t calls;
	uint64_t self_ns;
	uint64_t samples;	/* self samples */
	uint64_t open;		/* calls still running at the snapshot */
};

struct top_row {
	const struct func *f;
	uint64_t calls;
	uint64_t self_ns;
	uint64_t samples;
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct top_entry *)a)->key, ((const struct top_entry *)b)->key);
}

static int by_self_desc(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;
	if (x->self_ns != y->self_ns)
		return x->self_ns < y->self_ns ? 1 : -1;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->f->name, y->f->name);
}

static char *func_key(const struct func *f)
{
	return xasprintf("%s\t%s", f->symbol, f->object ? f->object : "");
}

static void entries_free(struct top_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].key);
	free(e);
}

/* The sums of P, sorted by key for the next interval's lookups. */
static struct top_entry *entries_of(const struct profile *p, size_t *n)
{
	struct top_entry *e = xmalloc((p->nfuncs + 1) * sizeof(*e));

	for (size_t i = 0; i < p->nfuncs; i++) {
		e[i].key = func_key(&p->funcs[i]);
		e[i].calls = p->funcs[i].calls;
		e[i].self_ns = p->funcs[i].self_ns;
		e[i].samples = p->funcs[i].self_samples;
		e[i].open = p->funcs[i].virtual_returns;
	}
	*n = p->nfuncs;
	qsort(e, *n, sizeof(*e), by_key);
	return e;
}

/* NOW less THEN, or 0 when the counter seems to have gone back. */
static uint64_t increase(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

/*
 * One screen: each function's calls, self time and self samples in the
 * window, hottest first.  A program that is only sampled has no times:
 * its screen ranks and shares by samples instead.
 */
static void print_screen(pid_t pid, const struct profile *p, const struct top_entry *prev,
			 size_t nprev, double seconds, int lines)
{
	struct top_row *rows = xmalloc((p->nfuncs + 1) * sizeof(*rows));
	size_t n = 0;
	uint64_t total = 0, total_samples = 0;

	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		struct top_entry key = { func_key(f), 0, 0, 0, 0 };
		const struct top_entry *old = bsearch(&key, prev, nprev, sizeof(*prev), by_key);
		free(key.key);
		uint64_t calls = old ? increase(f->calls, old->calls) : f->calls;
		uint64_t self = old ? increase(f->self_ns, old->self_ns) : f->self_ns;
		uint64_t samples = old ? increase(f->self_samples, old->samples) : f->self_samples;
		/*
		 * Each snapshot converts clock units with the TSC rate it
		 * measures from its own pair of clock readings, and a pair
		 * read a few microseconds apart (the reader preempted between
		 * them) moves the rate by a few parts in a million: the sums
		 * of a function idle in the window then seem to move by as
		 * much, thousands of ns for one that ran seconds before.
		 * Without a call begun, a sample, or a call running at either
		 * end of the window, the function did nothing in it.
		 */
		int open = f->virtual_returns || (old && old->open);
		if (!calls && !samples && (!open || self < 1000))
			continue;
		rows[n++] = (struct top_row){ f, calls, self, samples };
		total += self;
		total_samples += samples;
	}
	qsort(rows, n, sizeof(*rows), by_self_desc);
	time_t now = time(NULL);
	struct tm tm;
	char when[32];
	strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&now, &tm));
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	printf("# callscope top: process %d, the %.1f s to %s; %zu function%s ran\n", (int)pid,
	       seconds, when, n, n == 1 ? "" : "s");
	int by_samples = !total && total_samples;
	if (by_samples)
		printf("%7s %10s  %s\n", "% self", "samples", "function");
	else
		printf("%7s %14s %12s  %s\n", "% self", "self", "calls", "function");
	for (size_t i = 0; i < n && (int)i < lines; i++) {
		if (by_samples)
			printf("%7.2f %10llu  %s\n",
			       100.0 * (double)rows[i].samples / (double)total_samples,
			       (unsigned long long)rows[i].samples, rows[i].f->name);
		else
			printf("%7.2f %11.3f ms %12llu  %s\n",
			       total ? 100.0 * (double)rows[i].self_ns / (double)total : 0.0,
			       (double)rows[i].self_ns / 1e6, (unsigned long long)rows[i].calls,
			       rows[i].f->name);
	}
	printf("\n");
	fflush(stdout);
	free(rows);
}

static struct profile *take(pid_t pid, const char *path)
{
	const char *why;
	int salvaged = 0;
	char *reply = live_request(pid, "snapshot", &why);

	if (!reply) {
		int err = errno;
		if (kill(pid, 0) != 0 && errno == ESRCH)
			return NULL;	/* the program ended: top ends with it */
		live_unreachable_die(pid, why, err);
	}
	if (!live_reply_ok(reply))
		die("process %d refused 'snapshot': %s", (int)pid, live_reply_error(reply));
	if (live_snapshot(pid, reply, path, 1) != 0)
		exit(EXIT_FATAL);
	free(reply);
	return load_profile_path(path, &salvaged);
}

static long parse_positive(const char *option, const char *s, long max)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > max)
		usage_die("%s wants a whole number from 1 to %ld, not '%s'", option, max, s);
	return v;
}

int cmd_top(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "lines", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	long interval = 2, count = 0, lines = 20;
	int opt;

	while ((opt = getopt_long(argc, argv, "i:n:l:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': interval = parse_positive("--interval", optarg, 3600); break;
		case 'n': count = parse_positive("--count", optarg, 1000000); break;
		case 'l': lines = parse_positive("--lines", optarg, 100000); break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	char *end;
	long pid = strtol(argv[optind], &end, 10);
	if (*end || end == argv[optind] || pid <= 0 || pid > 0x3fffffff)
		usage_die("'%s' is not a process id; see 'callscope live list'", argv[optind]);

	const char *tmpdir = getenv("TMPDIR");
	char *dir = xasprintf("%s/callscope-top-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir))
		die("cannot make a directory for snapshots '%s': %s; set TMPDIR", dir,
		    strerror(errno));
	char *path = xasprintf("%s/snapshot.data", dir);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	struct profile *p = take((pid_t)pid, path);
	size_t nprev = 0;
	if (!p)
		die("cannot reach process %ld: there is no such process; see 'callscope live list'",
		    pid);
	struct top_entry *prev = entries_of(p, &nprev);
	profile_free(p);
	for (long shown = 0; !interrupted && (!count || shown < count); shown++) {
		struct timespec t = { interval, 0 };
		while (!interrupted && nanosleep(&t, &t) != 0 && errno == EINTR)
			;
		if (interrupted)
			break;
		p = take((pid_t)pid, path);
		if (!p) {
			fprintf(stderr, "callscope: process %ld ended\n", pid);
			break;
		}
		print_screen((pid_t)pid, p, prev, nprev, (double)interval, (int)lines);
		entries_free(prev, nprev);
		prev = entries_of(p, &nprev);
		profile_free(p);
	}
	entries_free(prev, nprev);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	return 0;
}
