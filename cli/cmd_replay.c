/*
 * callscope replay [-i PATH] [--pid=PID] [--tid=TID] [--last=N]
 *                  [--time-range=FROM-TO] [--depth=N] [--filter=FUNC]
 *                  [--min-duration=TIME] [--json]
 *
 * The recorded history, call by call: what ran, nested, when and for how
 * long, with marks and the fatal signal that ended a process.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/commands.h"
#include "cli/recording_arg.h"
#include "cli/demangle_option.h"
#include "cli/find_function.h"
#include "load/load.h"
#include "die.h"
#include "sections.h"
#include "report/replay.h"

static const char usage_text[] =
	"usage: callscope replay [-i PATH | PATH] [options]\n"
	"\n"
	"  -i, --input PATH       recording to read, or PATH alone (default: callscope.data)\n"
	"      --pid PID          only this process\n"
	"      --tid TID          only this thread\n"
	"      --signal-filter F  signal handlers: separate (default), exclude or none\n"
	"      --last N           only the last N lines of each thread\n"
	"      --time-range A-B   only what started between A and B (e.g. 10ms-2s)\n"
	"      --depth N          only N levels of nesting\n"
	"      --filter FUNC      only FUNC's calls and what they called (NAME or OBJECT:NAME)\n"
	"      --min-duration T   leave out calls shorter than T (e.g. 1us)\n"
	"      --json             machine-readable output (see docs/replay.md)\n"
	NO_DEMANGLE_HELP;

/* "250", "250ns", "1.5us", "10ms", "2s" -> nanoseconds. */
static uint64_t parse_time(const char *option, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	double scale = 1;

	if (end == s || v < 0)
		usage_die("%s wants a time such as 10ms, not '%s'", option, s);
	if (!strcmp(end, "s"))
		scale = 1e9;
	else if (!strcmp(end, "ms"))
		scale = 1e6;
	else if (!strcmp(end, "us"))
		scale = 1e3;
	else if (*end && strcmp(end, "ns"))
		usage_die("%s wants a time such as 10ms, not '%s'", option, s);
	return (uint64_t)(v * scale);
}

static uint64_t parse_count(const char *option, const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end || v < 0)
		usage_die("%s wants a number, not '%s'", option, s);
	return (uint64_t)v;
}

/* How a process without a SIGNAL record ended, from what was recorded. */
static const char *process_ending(void *ctx, uint32_t pid, uint32_t image)
{
	static char text[96];
	const struct data_file *df = ctx;
	const struct data_process *pr = data_file_process(df, pid, image);
	int status = df->session.wait_status;

	if (pr && pr->ended && pr->end_reason == PROCESS_END_EXEC)
		return "was replaced by exec";
	if (!pr || pr->ended)
		return NULL;
	if (df->session.flags & SESSION_SNAPSHOT)
		return "was still running when the snapshot was taken";
	/* the launcher saw how the process it started ended */
	if (pr == &df->processes[0] && WIFSIGNALED(status)) {
		snprintf(text, sizeof(text), "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
		return text;
	}
	return "ended without exiting normally (_exit, a signal, or exec of a program not recorded)";
}

int cmd_replay(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "signal-filter", required_argument, NULL, 'G' },
		{ "last", required_argument, NULL, 'l' },
		{ "time-range", required_argument, NULL, 'r' },
		{ "depth", required_argument, NULL, 'd' },
		{ "filter", required_argument, NULL, 'f' },
		{ "min-duration", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	struct load_filter filter = { -1, -1 };
	struct replay_filter rf = { -1, 0, 0, 0, -1, 0, 0 };
	const char *function = NULL;	/* --filter's SYMSPEC */
	int opt;

	while ((opt = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 'p': filter.pid = load_parse_id("--pid", optarg); break;
		case 't': filter.tid = load_parse_id("--tid", optarg); break;
		case 'G': filter.signals = load_parse_signal_filter(optarg); break;
		case 'l': rf.last = parse_count("--last", optarg); break;
		case 'd': rf.max_depth = (int64_t)parse_count("--depth", optarg); break;
		case 'f': function = optarg; break;
		case 'm': rf.min_duration_ns = parse_time("--min-duration", optarg); break;
		case 'j': rf.json = 1; break;
		case 'r': {
			char *dash = strchr(optarg, '-');
			if (!dash)
				usage_die("--time-range wants FROM-TO such as 10ms-2s, not '%s'", optarg);
			*dash = '\0';
			rf.from_ns = *optarg ? parse_time("--time-range", optarg) : 0;
			rf.to_ns = dash[1] ? parse_time("--time-range", dash + 1) : 0;
			if (rf.to_ns && rf.from_ns > rf.to_ns)
				usage_die("--time-range ends before it begins: '%s-%s'", optarg,
					  dash + 1);
			break;
		}
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	input = recording_arg("replay", input, argc, argv, optind);

	struct data_file df;
	if (data_file_load(input, &df) != 0)
		return EXIT_FATAL;
	if (df.session.mode == DATA_MODE_COUNT)
		die("'%s' was recorded with --mode=count, which sums calls per call path and keeps "
		    "no history; record in trace or flight mode to replay", input);
	struct profile *names = profile_new();
	struct replay *r = replay_new(names);
	struct replay_visitor v;
	struct load_stats stats;

	replay_visitor_init(r, &v);
	load_replay(&df, &filter, names, &v, &stats);
	if (!stats.events && !df.nthreads)
		warning("'%s' holds no calls", input);
	profile_name_homonyms(names);
	if (function)
		rf.function = find_function(names, function, "--filter", input);
	replay_print(stdout, r, &rf, process_ending, &df);
	replay_free(r);
	profile_free(names);
	data_file_release(&df);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
