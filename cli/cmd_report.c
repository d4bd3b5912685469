/*
 * callscope report [-i PATH] [--json] [--sort=KEY] [--pid=PID] [--tid=TID] [--thread]
 *                  [--stats] [--histogram FUNC]
 *
 * The flat profile.  Threads and processes are merged unless --thread
 * asks for one profile per thread.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/annotate_counts.h"
#include "cli/commands.h"
#include "cli/recording_arg.h"
#include "cli/demangle_option.h"
#include "cli/histogram.h"
#include "load/load.h"
#include "cli/sample_lines.h"
#include "die.h"
#include "json.h"
#include "report/flat.h"
#include "report/samples.h"
#include "report/unhooked.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope report [-i PATH | PATH] [--json] [--sort=KEY] [--pid=PID] [--tid=TID] [--thread]\n"
	"\n"
	"  -i, --input PATH  recording to read, or PATH alone (default: callscope.data)\n"
	"      --json        machine-readable output (see docs/report.md)\n"
	"  -s, --sort KEY    self (default), total, calls, avg, max or name\n"
	"      --pid PID     only this process\n"
	"      --tid TID     only this thread\n"
	"      --signal-filter F  signal handlers: separate (default), exclude or none\n"
	"      --thread      one profile per thread instead of one merged\n"
	"      --stats       add the spread of call durations and the period between calls\n"
	"      --histogram FUNC  only a histogram of FUNC's call durations (NAME or OBJECT:NAME)\n"
	"      --lines       sampled runs: samples per source line\n"
	"      --counts      with --lines: executions per line (a program built with --coverage)\n"
	"      --untimed[=CALLS,US]  functions called more than CALLS times (100000) at\n"
	"                    under US microseconds a call (10) keep their counts; their\n"
	"                    self time goes to their callers\n"
	NO_DEMANGLE_HELP;

static void json_profile_fields(struct json *j, const struct profile *p,
				const struct flat_options *o)
{
	json_kv_u64(j, "lost_events", p->lost_events);
	json_key(j, "counters");
	json_array_begin(j);
	for (size_t c = 0; c < p->ncounters; c++)
		json_string(j, p->counter_names[c]);
	json_array_end(j);
	json_kv_u64(j, "overwritten_events", p->overwritten_events);
	json_kv_u64(j, "calls", p->calls);
	report_hooks_json(j, p);
	if (p->samples)
		report_samples_json_fields(j, p);
	if (p->unhooked.samples)
		report_unhooked_json(j, p);
	json_key(j, "functions");
	report_flat_json_functions(j, p, o);
}

/* --untimed=CALLS,MICROSECONDS */
static int parse_untimed(const char *s, uint64_t *calls, uint64_t *us)
{
	char *end;
	unsigned long long c = strtoull(s, &end, 10);

	if (end == s || *end != ',')
		return -1;
	const char *u = end + 1;
	unsigned long long m = strtoull(u, &end, 10);
	if (end == u || *end || !m || m > 1000000000ull || *s == '-' || *u == '-')
		return -1;
	*calls = c;
	*us = m;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "sort", required_argument, NULL, 's' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "signal-filter", required_argument, NULL, 'G' },
		{ "thread", no_argument, NULL, 'T' },
		{ "stats", no_argument, NULL, 'S' },
		{ "histogram", required_argument, NULL, 'H' },
		{ "lines", no_argument, NULL, 'L' },
		{ "counts", no_argument, NULL, 'C' },
		{ "untimed", optional_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	struct flat_options fo = { FLAT_SORT_SELF, NULL };
	struct load_filter filter = { -1, -1 };
	int json = 0, per_thread = 0, lines = 0, counts = 0, untime = 0, opt;
	/* TAU's throttling thresholds */
	uint64_t untime_calls = 100000, untime_us = 10;
	const char *histogram = NULL;

	while ((opt = getopt_long(argc, argv, "i:s:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 'j': json = 1; break;
		case 's':
			if (flat_sort_parse(optarg, &fo.sort))
				usage_die("unknown sort key '%s'; use self, total, calls, avg, max or name",
					  optarg);
			break;
		case 'p': filter.pid = load_parse_id("--pid", optarg); break;
		case 't': filter.tid = load_parse_id("--tid", optarg); break;
		case 'G': filter.signals = load_parse_signal_filter(optarg); break;
		case 'T': per_thread = 1; break;
		case 'S': fo.stats = 1; break;
		case 'H': histogram = optarg; break;
		case 'L': lines = 1; break;
		case 'C': counts = 1; break;
		case 'U':
			untime = 1;
			if (optarg && parse_untimed(optarg, &untime_calls, &untime_us) != 0)
				usage_die("--untimed wants CALLS,MICROSECONDS (e.g. 100000,10), not '%s'",
					  optarg);
			break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	input = recording_arg("report", input, argc, argv, optind);
	if (histogram && per_thread)
		usage_die("--histogram and --thread do not go together; select a thread with --tid");

	if (load_path_is_prf(input)) {
		/* a .prf file is one profile: no processes or threads to pick */
		if (per_thread || filter.pid >= 0 || filter.tid >= 0)
			usage_die("'%s' is a .prf file: --thread, --pid and --tid do not apply", input);
		int salvaged = 0;
		struct profile *p = load_profile_path(input, &salvaged);
		struct json j;
		if (json) {
			json_init(&j, stdout);
			json_object_begin(&j);
			json_profile_fields(&j, p, &fo);
			json_object_end(&j);
			json_finish(&j);
		} else {
			report_flat(stdout, p, &fo);
		}
		profile_free(p);
		return salvaged ? EXIT_SALVAGED : 0;
	}
	struct data_file df;
	if (data_file_load(input, &df) != 0)
		return EXIT_FATAL;
	if (filter.pid >= 0 || filter.tid >= 0) {
		int any = 0;
		for (size_t i = 0; i < df.nthreads; i++)
			any |= (filter.pid < 0 || df.threads[i].pid == filter.pid) &&
			       (filter.tid < 0 || df.threads[i].tid == filter.tid);
		if (!any)
			die("no thread in '%s' matches the --pid/--tid given; see 'callscope info'",
			    input);
	}
	if (counts && !lines)
		usage_die("--counts goes with --lines (report --lines --counts)");
	if (lines) {
		if (histogram || per_thread)
			usage_die("--lines goes with neither --histogram nor --thread");
		int status = counts ? count_lines_report(&df, input, json)
				    : sample_lines_report(&df, &filter, json);
		data_file_release(&df);
		return status;
	}
	if (histogram) {
		int status = histogram_report(&df, &filter, histogram, json, input);
		data_file_release(&df);
		return status;
	}

	int salvaged = 0;
	struct json j;
	json_init(&j, stdout);
	if (json) {
		json_object_begin(&j);
		if (per_thread) {
			json_key(&j, "threads");
			json_array_begin(&j);
		}
	}
	for (size_t i = 0; i < (per_thread ? df.nthreads : 1); i++) {
		struct load_filter f = filter;
		char *title = NULL;
		if (per_thread) {
			const struct data_thread *th = &df.threads[i];
			if ((filter.pid >= 0 && th->pid != filter.pid) ||
			    (filter.tid >= 0 && th->tid != filter.tid))
				continue;
			f.pid = th->pid;
			f.tid = th->tid;
			f.by_image = 1;
			f.image = th->image;
			title = th->image ? xasprintf("## thread %u of process %u, image %u (after "
						      "exec)", th->tid, th->pid, th->image)
					  : xasprintf("## thread %u of process %u", th->tid, th->pid);
		}
		struct load_stats stats;
		struct profile *p = profile_new();
		/* the text without --stats shows no spread nor periods */
		p->skip_spread = !json && !fo.stats;
		load_profile_into(p, &df, &f, &stats);
		salvaged |= stats.salvaged;
		if (untime)
			profile_untime_short(p, untime_calls, untime_us * 1000);
		if (json) {
			if (per_thread) {
				json_object_begin(&j);
				json_kv_u64(&j, "pid", (uint64_t)f.pid);
				json_kv_u64(&j, "tid", (uint64_t)f.tid);
				json_kv_u64(&j, "image", f.image);
			}
			json_profile_fields(&j, p, &fo);
			if (per_thread)
				json_object_end(&j);
		} else {
			fo.title = title;
			if (i)
				putchar('\n');
			/* a sampled run leads with its samples; traced calls
			 * follow (--time-by=samples' samples are their times),
			 * both under the thread's title */
			int sample_table = (p->samples || df.session.mode == DATA_MODE_SAMPLE) &&
					   !p->time_sample_period_ns;
			if (sample_table) {
				if (title)
					printf("%s\n", title);
				fo.title = NULL;
				report_samples(stdout, p);
				if (p->calls)
					putchar('\n');
			}
			if (p->calls || !sample_table)
				report_flat(stdout, p, &fo);
		}
		free(title);
		profile_free(p);
	}
	if (json) {
		if (per_thread)
			json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	}
	data_file_release(&df);
	return salvaged ? EXIT_SALVAGED : 0;
}
