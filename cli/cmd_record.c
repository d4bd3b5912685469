/*
 * callscope record [-o PATH] [--clock=tsc|mono] [--chunk=BYTES] -- PROG [ARGS...]
 *
 * Runs PROG with the runtime preloaded, waits for it, and seals what the
 * runtime wrote into one data file.  PROG's exit status is passed through,
 * and its death by a signal too (record then dies of the same signal), so
 * `callscope record` can stand in for the program in scripts.
 */
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cli/commands.h"
#include "cli/attach.h"
#include "cli/events.h"
#include "symbols/instrumented.h"
#include "cli/record_descendants.h"
#include "cli/record_patch.h"
#include "cli/record_sampling.h"
#include "formats/seal.h"
#include "symbols/find.h"
#include "contract.h"
#include "libcall_setting.h"
#include "sections.h"
#include "die.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope record [options] -- PROG [ARGS...]\n"
	"\n"
	"  -o, --output PATH     where to write the recording (default: callscope.data)\n"
	"  -q, --quiet           print nothing of record's own but warnings and errors\n"
	"      --log FILE        append record's and the runtime's lines to FILE, not\n"
	"                        to the program's stderr\n"
	"      --mode MODE       trace (every call; the default for a program with\n"
	"                        hooks); sample (the default without hooks; a program\n"
	"                        with hooks runs them idle); both (trace and sample);\n"
	"                        flight[=SIZE]: trace, keeping only the last SIZE bytes\n"
	"                        of events per thread (default 1M); count[=NODES]: sum\n"
	"                        calls per call path in the program, in bounded memory\n"
	"                        (default 262144 paths per thread)\n"
	"      --start-at FUNC   record nothing until FUNC is entered\n"
	"      --stop-at FUNC,.. stop recording when one of these is entered\n"
	"      --one-pass        with --start-at: capture a single start-to-stop window\n"
	"      --start-stopped   capture off until callscope_start() or 'callscope live'\n"
	"      --live            a control socket for 'callscope live' from the start,\n"
	"                        served by a thread of the runtime's\n"
	"      --no-live         no control socket and no such thread, ever\n"
	"                        (default: both come when the program starts a thread,\n"
	"                        so a single-threaded one keeps glibc's fast paths)\n"
	"  -e, --events C1[,C2]  also count these at every entry and exit (see\n"
	"                        'callscope list'), e.g. -e page-faults,context-switches\n"
	"      --skip-missing-events  go on without an event this machine cannot count\n"
	"      --clock KIND      tsc (default where the TSC is constant) or mono\n"
	"      --chunk BYTES     how much a thread buffer grows by (default 8M; 1M\n"
	"                        when only sampling with frame pointers)\n"
	"      --patch[=SPEC]    trace a program built without hooks by patching its\n"
	"                        function entries before it starts: SPEC lists\n"
	"                        functions (luaH_*), objects (libz) or OBJECT:FUNCTION\n"
	"                        (default: every function of the program)\n"
	"      --no-libcall      do not trace calls into other objects through the\n"
	"                        PLT or GOT (traced by default: strcmp, malloc, qsort)\n"
	"      --libcall SPEC    trace only these library calls: function names (a\n"
	"                        trailing * matches any ending) and objects (libm.so)\n"
	"      --outside-freq HZ samples per second, beside a trace, that measure the\n"
	"                        time spent in code without hooks (default 199; 0: off)\n"
	"      --sample          also sample the program's stacks (the default, and the\n"
	"                        only mode, for a program without hooks)\n"
	"      --freq HZ         samples per second of each thread (default 999)\n"
	"      --sample-clock K  cpu (each thread's CPU time, default) or wall (elapsed\n"
	"                        time: blocked threads are sampled too)\n"
	"      --only OBJ[,OBJ]  keep only samples in these objects (file names, e.g. libz)\n"
	"      --pid PID         sample a running process instead (cpu-clock, no restart)\n"
	"                        and print its flat profile; --duration SECONDS limits it\n"
	"      --stack auto|fp|dwarf  how samples find their callers: frame pointers\n"
	"                        where the code keeps them, else a copy of the stack\n"
	"                        unwound offline with DWARF (auto, the default)\n"
	"      --sample-source S perf (a task-clock event; the default, with the timer\n"
	"                        where perf events are not allowed) or timer\n"
	"      --time-by SOURCE  with --mode=count: clock (each call timed, the default)\n"
	"                        or samples (calls only counted; time from timer samples\n"
	"                        of the exact call path, --freq per second)\n"
	"      --call-stats      with --mode=count: also keep each function's per-call\n"
	"                        statistics (shortest, longest, spread, histogram,\n"
	"                        period between calls); they cost every call more\n";

#define FLIGHT_DEFAULT (1u << 20)
#define OUTSIDE_HZ_DEFAULT 199
#define COUNT_DEFAULT (1u << 18)

/* --libcall=SPEC: a comma-separated list without empty items. */
static const char *libcall_spec(const char *spec)
{
	if (!*spec || strlen(spec) >= LIBCALL_SPEC_MAX || spec[0] == ',' ||
	    spec[strlen(spec) - 1] == ',' || strstr(spec, ",,"))
		usage_die("--libcall wants a comma-separated list of functions (strcmp, mem*) "
			  "or objects (libm.so), not '%s'", spec);
	return spec;
}

/* Finds PROG as execvp would; returns a malloc'd path or NULL. */
static char *find_program(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, F_OK) == 0 ? xstrdup(prog) : NULL;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char *copy = xstrdup(path), *save = NULL;
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		char *cand = xasprintf("%s/%s", *dir ? dir : ".", prog);
		if (access(cand, X_OK) == 0) {
			free(copy);
			return cand;
		}
		free(cand);
	}
	free(copy);
	return NULL;
}

/*
 * The runtime library: $CALLSCOPE_LIB if set, else libcallscope.so beside
 * this executable, else in ../lib/callscope/ (an installed layout).
 */
static char *find_runtime(void)
{
	const char *env = getenv("CALLSCOPE_LIB");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		if (access(env, R_OK) != 0)
			die("CALLSCOPE_LIB names '%s', which cannot be read: %s", env, strerror(errno));
		return realpath(env, NULL);
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		die("cannot find the callscope executable: %s", strerror(errno));
	self[n] = '\0';
	char *dir = dirname(self);
	const char *candidates[] = { "%s/libcallscope.so", "%s/../lib/callscope/libcallscope.so" };
	for (size_t i = 0; i < 2; i++) {
		char *path = xasprintf(candidates[i], dir);
		if (access(path, R_OK) == 0) {
			char *real = realpath(path, NULL);
			free(path);
			return real;
		}
		free(path);
	}
	die("cannot find libcallscope.so beside '%s'; build it with 'make' or set CALLSCOPE_LIB",
	    self);
}

/*
 * Whether the TSC ticks at one rate in every power state and on every
 * core: CPUID's invariant-TSC bit (leaf 0x80000007, EDX bit 8), from which
 * Linux sets both the constant_tsc and nonstop_tsc flags of /proc/cpuinfo.
 * One instruction, where reading /proc/cpuinfo cost a launch 0.1 ms.
 */
static int tsc_usable(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;

	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
#else
	return 0;
#endif
}

/* A size such as 64K or 8M for OPTION, between 64K and 1G, page-aligned. */
static uint32_t parse_size(const char *option, const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		usage_die("%s wants a size such as 4M, not '%s'", option, s);
	unsigned shift = *end == 'k' || *end == 'K' ? 10
			 : *end == 'm' || *end == 'M' ? 20
			 : *end == 'g' || *end == 'G' ? 30 : 0;
	if (shift)
		end++;
	/* checked before shifting, so a huge number cannot wrap into range */
	if (v > (1ull << 30) >> shift)
		usage_die("%s wants a multiple of 4K between 64K and 1G, not '%s'", option, s);
	v <<= shift;
	if (*end || v < (64u << 10) || v > (1u << 30) || (v & 4095))
		usage_die("%s wants a multiple of 4K between 64K and 1G, not '%s'", option, s);
	return (uint32_t)v;
}

static void parse_mode(const char *s, struct contract *c, struct record_sampling *rs)
{
	c->ring_bytes = 0;
	c->count_nodes = 0;
	rs->mode = RECORD_MODE_AUTO;
	if (!strcmp(s, "trace")) {
		rs->mode = RECORD_MODE_TRACE;
	} else if (!strcmp(s, "sample")) {
		rs->mode = RECORD_MODE_SAMPLE;
	} else if (!strcmp(s, "both")) {
		rs->mode = RECORD_MODE_BOTH;
	} else if (!strcmp(s, "count")) {
		c->count_nodes = COUNT_DEFAULT;
	} else if (!strncmp(s, "count=", 6)) {
		char *end;
		unsigned long v = strtoul(s + 6, &end, 10);
		if (*end || v < CONTRACT_NODES_MIN || v > CONTRACT_NODES_MAX)
			usage_die("--mode=count wants a number of call paths from %u to %u, not '%s'",
				  CONTRACT_NODES_MIN, CONTRACT_NODES_MAX, s + 6);
		c->count_nodes = (uint32_t)v;
	} else if (!strcmp(s, "flight")) {
		c->ring_bytes = FLIGHT_DEFAULT;
	} else if (!strncmp(s, "flight=", 7)) {
		c->ring_bytes = parse_size("--mode=flight", s + 7);
	} else {
		usage_die("--mode wants trace, sample, both, flight[=SIZE] or count[=NODES], not '%s'",
			  s);
	}
}

/*
 * Resolves the -e list into the contract, opening each event once here so
 * that a counter this machine lacks fails now with the reason, or is left
 * out with a warning when the user said so.
 */
static void parse_events(const char *list, int skip_missing, struct contract *c,
			 struct seal_session *session)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		const struct event_desc *e = event_find(name);
		char why[256];
		if (!e)
			usage_die("unknown event '%s'; 'callscope list' shows the events", name);
		if (c->ncounters == CONTRACT_COUNTERS_MAX)
			usage_die("-e takes at most %d events", CONTRACT_COUNTERS_MAX);
		if (event_probe(e, why, sizeof(why)) != EVENT_SUPPORTED) {
			if (!skip_missing)
				die("%s (or pass --skip-missing-events to record without it)", why);
			warning("%s; recording without it", why);
			continue;
		}
		c->counters[c->ncounters].type = e->type;
		c->counters[c->ncounters].config = e->config;
		session->counter_names[c->ncounters] = e->name;
		c->ncounters++;
	}
	free(copy);
}

/* Looks FUNC up in PROG, so a typo fails before the program runs. */
static void resolve_trigger(const char *prog, const char *func, struct contract_range *r)
{
	int rc = symbol_find_function(prog, func, &r->addr, &r->size);
	if (rc < 0)
		exit(EXIT_FATAL);
	if (rc > 0)
		die("'%s' has no function '%s' to trigger on; check the name with nm", prog, func);
}

static void resolve_stops(const char *prog, const char *list, struct contract *c)
{
	char *copy = xstrdup(list), *save = NULL;
	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		if (c->nstops == CONTRACT_STOPS_MAX)
			usage_die("--stop-at takes at most %d functions", CONTRACT_STOPS_MAX);
		resolve_trigger(prog, f, &c->stops[c->nstops++]);
	}
	free(copy);
}

/* The idle hooks' library (runtime/arch/x86_64/idle_hooks.S), which is
 * installed beside the runtime; a malloc'd path the caller frees. */
static char *idle_hooks_library(const char *runtime)
{
	char *copy = xstrdup(runtime);
	char *path = xasprintf("%s/libcallscope-idle-hooks.so", dirname(copy));

	free(copy);
	if (access(path, R_OK) != 0)
		die("cannot find '%s' beside the runtime: %s; --mode=sample needs it for a "
		    "program with hooks", path, strerror(errno));
	return path;
}

/*
 * record --log=PATH: record's lines are appended to PATH, and so are the
 * runtime's (it opens PATH, by its absolute name, for each), so the
 * program's stderr is its own.
 */
static void open_log(const char *path)
{
	/* not blocking: a FIFO with no reader fails here, not hangs */
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK,
		      0666);
	if (fd < 0)
		die("cannot open the log '%s': %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)))
		die("cannot log to '%s': it is neither a regular file nor a device such as "
		    "/dev/null", path);
	FILE *log = fdopen(fd, "a");
	char *absolute = realpath(path, NULL);
	if (!log || !absolute)
		die("cannot open the log '%s': %s", path, strerror(errno));
	die_set_stream(log);
	setenv(CONTRACT_LOG_ENV, absolute, 1);
	free(absolute);
}

/*
 * Ends record as the program ended, killed by SIG, as timeout(1) passes on
 * its command's death: a caller that asks how it ended (a shell printing
 * "Segmentation fault", a test harness expecting a death by signal) sees
 * the program's.  Without a core file of record's own.  Returns only for
 * a signal whose default action does not end a process.
 */
static void die_of_signal(int sig)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;

	fflush(NULL);
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/* Prepends LIB to LD_PRELOAD, keeping what the user had. */
static void set_preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *value = old && *old ? xasprintf("%s:%s", lib, old) : xstrdup(lib);
	setenv("LD_PRELOAD", value, 1);
	free(value);
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "log", required_argument, NULL, 'G' },
		{ "clock", required_argument, NULL, 'c' },
		{ "chunk", required_argument, NULL, 'k' },
		{ "mode", required_argument, NULL, 'm' },
		{ "start-at", required_argument, NULL, 'S' },
		{ "stop-at", required_argument, NULL, 'E' },
		{ "one-pass", no_argument, NULL, '1' },
		{ "start-stopped", no_argument, NULL, 'Z' },
		{ "live", no_argument, NULL, 'I' },
		{ "no-live", no_argument, NULL, 'V' },
		{ "events", required_argument, NULL, 'e' },
		{ "skip-missing-events", no_argument, NULL, 'M' },
		{ "sample", no_argument, NULL, 'P' },
		{ "no-libcall", no_argument, NULL, 'N' },
		{ "libcall", required_argument, NULL, 'L' },
		{ "outside-freq", required_argument, NULL, 'U' },
		{ "freq", required_argument, NULL, 'F' },
		{ "sample-clock", required_argument, NULL, 'W' },
		{ "only", required_argument, NULL, 'O' },
		{ "pid", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'D' },
		{ "stack", required_argument, NULL, 'K' },
		{ "sample-source", required_argument, NULL, 'Q' },
		{ "time-by", required_argument, NULL, 'T' },
		{ "call-stats", no_argument, NULL, 'C' },
		{ "patch", optional_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct record_sampling rs = { .hz = SAMPLING_HZ_DEFAULT };
	const char *out_path = "callscope.data";
	const char *log_path = NULL;
	int quiet = 0;
	const char *start_at = NULL, *stop_at = NULL, *events = NULL;
	const char *libcall = LIBCALL_ALL;
	uint32_t outside_hz = OUTSIDE_HZ_DEFAULT;
	int skip_missing = 0;
	int patch = 0;
	const char *patch_spec = NULL;
	const char *attach_pid = NULL, *attach_duration = NULL;
	struct contract contract;
	int force_clock = -1, opt;

	memset(&contract, 0, sizeof(contract));
	contract.version = CONTRACT_VERSION;
	contract.chunk_bytes = 0;	/* not given: chosen below */
	while ((opt = getopt_long(argc, argv, "+o:e:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': out_path = optarg; break;
		case 'q': quiet = 1; break;
		case 'G': log_path = optarg; break;
		case 'c':
			if (!strcmp(optarg, "tsc"))
				force_clock = CONTRACT_CLOCK_TSC;
			else if (!strcmp(optarg, "mono"))
				force_clock = CONTRACT_CLOCK_MONO;
			else
				usage_die("--clock wants tsc or mono, not '%s'", optarg);
			break;
		case 'k': contract.chunk_bytes = parse_size("--chunk", optarg); break;
		case 'm': parse_mode(optarg, &contract, &rs); break;
		case 'S': start_at = optarg; break;
		case 'E': stop_at = optarg; break;
		case '1': contract.one_pass = 1; break;
		case 'Z': contract.start_stopped = 1; break;
		case 'I': contract.live = CONTRACT_LIVE_AT_START; break;
		case 'V': contract.live = CONTRACT_LIVE_NEVER; break;
		case 'e': events = optarg; break;
		case 'M': skip_missing = 1; break;
		case 'P': rs.asked = 1; break;
		case 'N': libcall = NULL; break;
		case 'L': libcall = libcall_spec(optarg); break;
		case 'U':
			outside_hz = strcmp(optarg, "0") ? record_sampling_hz(optarg) : 0;
			break;
		case 'F': rs.hz = record_sampling_hz(optarg); rs.explicit_option = 1; break;
		case 'W': rs.wall = record_sampling_clock(optarg); rs.explicit_option = 1; break;
		case 'O': rs.only = optarg; rs.explicit_option = 1; break;
		case 'p': attach_pid = optarg; break;
		case 'D': attach_duration = optarg; break;
		case 'K': rs.stack = record_sampling_stack(optarg); rs.explicit_option = 1; break;
		case 'Q': rs.timer = record_sampling_source(optarg); rs.explicit_option = 1; break;
		case 'T':
			if (strcmp(optarg, "clock") && strcmp(optarg, "samples"))
				usage_die("--time-by wants clock or samples, not '%s'", optarg);
			contract.time_by_samples = !strcmp(optarg, "samples");
			break;
		case 'C': contract.call_stats = 1; break;
		case 'X': patch = 1; patch_spec = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (patch && attach_pid)
		usage_die("--patch patches a program as it starts; leave out --pid");
	die_set_silent(quiet);
	if (log_path)
		open_log(log_path);
	else
		unsetenv(CONTRACT_LOG_ENV);	/* not a recording's around this one */
	if (attach_pid)
		return attach_record(attach_pid, attach_duration, rs.hz);
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	char **prog_argv = argv + optind;
	int prog_argc = argc - optind;

	char *prog = find_program(prog_argv[0]);
	if (!prog)
		die("cannot find program '%s': No such file or directory", prog_argv[0]);
	struct program_hooks hooks;
	if (program_hooks_read(prog, &hooks) != 0)
		exit(EXIT_FATAL);
	if (!hooks.dynamic)
		die("'%s' is statically linked, so the runtime cannot be loaded into it; "
		    "link it dynamically", prog);
	if (patch && hooks.kinds) {
		inform("'%s' calls %s hooks, so it is traced through them; --patch is left out",
		       prog, program_hooks_describe(hooks.kinds));
		patch = 0;
	}
	if (patch && rs.mode == RECORD_MODE_SAMPLE)
		usage_die("--patch traces the program; leave out --mode=sample");
	if (contract.time_by_samples && !contract.count_nodes)
		usage_die("--time-by=samples times count mode: add --mode=count");
	if (contract.call_stats && (!contract.count_nodes || contract.time_by_samples))
		usage_die("--call-stats keeps per-call statistics in count mode timed by the clock: "
			  "add --mode=count, leave out --time-by=samples (a trace has them already)");
	if (contract.time_by_samples && (events || start_at || stop_at))
		usage_die("--time-by=samples reads no clock or counter in the hooks, which also "
			  "see no trigger: leave out -e, --start-at and --stop-at");
	char *sample_env = record_sampling_choose(&rs, prog, hooks.kinds != 0 || patch, &contract);
	int idle_hooks = record_sampling_idle_hooks(&rs, hooks.kinds != 0);
	contract.sample_only = !(hooks.kinds || patch) || idle_hooks;
	contract.hooks = hooks.kinds;
	contract.patch = patch;
	/* a trace not sampled otherwise is sampled gently, only to say how
	 * much time its hooks did not see */
	if (!sample_env && !contract.sample_only && outside_hz)
		sample_env = xasprintf("hz=%u;clock=cpu;bg=1", outside_hz);
	if (!contract.chunk_bytes)
		contract.chunk_bytes = contract.sample_only ? RECORD_SAMPLING_CHUNK
							    : CONTRACT_CHUNK_DEFAULT;
	if (contract.sample_only && (start_at || stop_at))
		usage_die("--start-at and --stop-at are seen by the profiling hooks, so they need "
			  "tracing; %s", hooks.kinds ? "leave out --mode=sample"
						: "add --patch, or rebuild the program with -pg");
	char *runtime = find_runtime();
	struct seal_session session;
	memset(&session, 0, sizeof(session));
	if (events)
		parse_events(events, skip_missing, &contract, &session);
	session.ncounters = contract.ncounters;
	for (uint32_t i = 0; i < contract.ncounters; i++) {
		session.counter_types[i] = contract.counters[i].type;
		session.counter_configs[i] = contract.counters[i].config;
	}
	/* count mode follows --start-at/--stop-at, but callscope_start() and
	 * 'live start', the other ways out of --start-stopped, are not
	 * offered there */
	if (contract.start_stopped && contract.count_nodes && !start_at)
		usage_die("--start-stopped does not go with --mode=count, where the program "
			  "cannot start capture; give --start-at=FUNC instead");
	if (contract.one_pass && !start_at)
		usage_die("--one-pass needs --start-at");
	if (start_at) {
		resolve_trigger(prog, start_at, &contract.start);
		contract.has_start = 1;
	}
	if (stop_at)
		resolve_stops(prog, stop_at, &contract);

	/* The staging directory sits beside the output: same file system,
	 * so sealing ends in a rename, and an unwritable place fails now. */
	char *out_copy = xstrdup(out_path);
	char *staging = xasprintf("%s/.callscope-XXXXXX", dirname(out_copy));
	free(out_copy);
	struct stat st;
	/* sealing renames a new file into place: never over a device, a
	 * FIFO or a socket that happens to bear the name */
	if (stat(out_path, &st) == 0 && S_ISDIR(st.st_mode))
		die("cannot write '%s': it is a directory", out_path);
	if (stat(out_path, &st) == 0 && !S_ISREG(st.st_mode))
		die("cannot write '%s': it is not a regular file; give another path with -o",
		    out_path);
	if (!mkdtemp(staging))
		die("cannot write '%s': %s", out_path, strerror(errno));
	/* the runtime has it by its absolute path: the program may change
	 * directory before a thread, a child or an exec'd image opens its
	 * files there */
	char *absolute = realpath(staging, NULL);
	if (!absolute)
		die("cannot find the staging directory '%s' again: %s", staging, strerror(errno));
	if (strlen(absolute) >= sizeof(contract.dir))
		die("the output path '%s' is too long", out_path);
	memcpy(contract.dir, absolute, strlen(absolute) + 1);
	free(absolute);
	struct patch_plan *patch_plan = patch ? record_patch_plan(prog, patch_spec, staging) : NULL;
	int tsc = tsc_usable();
	if (force_clock >= 0)
		contract.clock = (enum contract_clock)force_clock;
	else
		contract.clock = tsc ? CONTRACT_CLOCK_TSC : CONTRACT_CLOCK_MONO;
	if (contract.clock == CONTRACT_CLOCK_TSC && !tsc)
		warning("the TSC is not constant here; times may be wrong (use --clock=mono)");
	if (sample_env) {
		if (strlen(sample_env) >= sizeof(contract.sampling))
			usage_die("the sampling settings are too long: name fewer objects in --only");
		memcpy(contract.sampling, sample_env, strlen(sample_env) + 1);
	}
	char text[CONTRACT_PATH_MAX + CONTRACT_SAMPLING_MAX + 128];
	if (contract_format(&contract, text, sizeof(text)) != 0)
		BUG("contract does not fit");

	struct timespec now;
	char cwd[PATH_MAX];
	clock_gettime(CLOCK_REALTIME, &now);
	session.unix_start_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	session.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : "";
	session.argc = prog_argc;
	session.argv = prog_argv;
	session.clock = contract.clock;
	session.mode = contract.sample_only ? DATA_MODE_SAMPLE
		       : contract.ring_bytes ? DATA_MODE_FLIGHT
		       : contract.count_nodes ? DATA_MODE_COUNT : DATA_MODE_TRACE;
	struct clock_pair at = clock_pair_read(CONTRACT_CLOCK_TSC);
	session.tsc_start = at.clock;
	session.mono_start = at.mono_ns;

	/* The program's environment is made in ours, which runs nothing
	 * else, and the program is started by posix_spawn: a fork would copy
	 * this process (its page tables, then copy-on-write faults) only for
	 * exec to throw the copy away, a tenth of a millisecond of each run. */
	set_preload(runtime);
	if (idle_hooks) {
		/* ahead of the runtime, so the program's hooks bind to it */
		char *idle = idle_hooks_library(runtime);
		set_preload(idle);
		free(idle);
	}
	setenv(CONTRACT_ENV, text, 1);
	/* room for the runtime to say which image the environment is of */
	setenv(IMAGE_ENV, IMAGE_MARK_NONE, 1);
	if (libcall && !contract.sample_only)
		setenv(LIBCALL_ENV, libcall, 1);
	else
		unsetenv(LIBCALL_ENV);
	fflush(NULL);
	pid_t child;
	int status = 0;
	descendants_adopt();
	int spawn_error = posix_spawn(&child, prog, NULL, NULL, prog_argv, environ);
	if (spawn_error) {
		error("cannot run '%s': %s", prog, strerror(spawn_error));
		status = W_EXITCODE(127, 0);	/* as a shell says it could not run one */
	}
	/* Like time(1): the terminal's signals are the program's to handle. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	if (!spawn_error) {
		/* the program runs meanwhile */
		seal_drop_older(out_path);
		while (waitpid(child, &status, 0) < 0) {
			if (errno != EINTR)
				die("cannot wait for '%s': %s", prog, strerror(errno));
		}
		descendants_wait();
	}
	at = clock_pair_read(CONTRACT_CLOCK_TSC);
	session.tsc_end = at.clock;
	session.mono_end = at.mono_ns;
	session.wait_status = status;
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);

	if (patch_plan)
		session.patch_coverage = record_patch_coverage(patch_plan, staging,
							       &session.patch_coverage_len);
	struct seal_result res;
	if (seal_staging(staging, out_path, &session, &res) != 0)
		exit(EXIT_FATAL);
	seal_remove_staging(staging);
	if (res.threads == 0)
		warning("'%s' ran no instrumented code; '%s' holds no calls", prog, out_path);
	char execs[48] = "";
	if (res.images > res.processes)
		snprintf(execs, sizeof(execs), " (%zu exec%s)", res.images - res.processes,
			 res.images - res.processes == 1 ? "" : "s");
	inform("recorded %zu thread%s of %zu process%s%s into '%s' (%llu bytes)%s",
	       res.threads, res.threads == 1 ? "" : "s", res.processes,
	       res.processes == 1 ? "" : "es", execs, out_path, (unsigned long long)res.bytes,
	       res.lost_events ? "; some events were lost, see 'callscope info'" : "");
	if (quiet && res.lost_events)
		warning("some events were lost in '%s', see 'callscope info'", out_path);
	free((void *)session.patch_coverage);
	free(sample_env);
	free(staging);
	free(runtime);
	free(prog);
	if (WIFSIGNALED(status)) {
		die_of_signal(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}
