/*
 * callscope info [-i PATH] [--json]
 *
 * What a recording holds: the program and its command line, when and how
 * it was recorded, every process and thread, events, losses and the hook
 * overhead that reports subtract.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/debug_packages.h"
#include "cli/patch_info.h"
#include "cli/recording_arg.h"
#include "load/hook_cost.h"
#include "load/load.h"
#include "contract.h"
#include "die.h"
#include "formats/cursor.h"
#include "json.h"
#include "report/flat.h"
#include "report/samples.h"
#include "report/unhooked.h"
#include "report/units.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope info [-i PATH | PATH] [--json] [--verbose]\n"
	"\n"
	"  -i, --input PATH  recording to read, or PATH alone (default: callscope.data)\n"
	"      --json        machine-readable output (see docs/info.md)\n"
	"  -v, --verbose     also name the functions record --patch skipped\n";

/* Calls argument I of the session's command line back with its bytes. */
static void session_args(const struct data_session *s,
			 void (*fn)(void *ctx, const char *arg, size_t len), void *ctx)
{
	struct cursor c;
	cursor_init(&c, s->argv_blobs, s->argv_blobs, s->argv_blobs + s->argv_len);
	for (uint32_t i = 0; i < s->argc; i++) {
		size_t len;
		const uint8_t *b = cursor_blob(&c, &len, "argument");
		if (!b)
			break;
		fn(ctx, (const char *)b, len);
	}
}

/* Calls FN back with each argument of process PR's command line. */
static void process_args(const struct data_process *pr,
			 void (*fn)(void *ctx, const char *arg, size_t len), void *ctx)
{
	const char *p = (const char *)pr->cmdline, *end = p + pr->cmdline_len;

	while (p < end) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);
		fn(ctx, p, len);
		p += len + 1;
	}
}

static void print_arg(void *ctx, const char *arg, size_t len)
{
	int *first = ctx;
	printf("%s%.*s", *first ? "" : " ", (int)len, arg);
	*first = 0;
}

static void json_arg(void *ctx, const char *arg, size_t len)
{
	char *s = xstrndup(arg, len);
	json_string(ctx, s);
	free(s);
}

/* How the runtime read the counters: rdpmc where every thread could. */
static const char *counter_method(const struct data_file *df)
{
	int rdpmc = df->nthreads > 0;

	if (!df->ncounters)
		return "none";
	for (size_t i = 0; i < df->nthreads; i++)
		rdpmc &= !!(df->threads[i].counter_info & THREAD_COUNTERS_BY_RDPMC);
	return rdpmc ? "rdpmc (user space)" : "read() system calls";
}

/* Count mode's memory: the records (call paths, functions' statistics)
 * every thread kept, and the calls that found no room and went to
 * "<truncated>". */
struct count_memory {
	uint64_t nodes, bytes, truncated_calls;
};

static struct count_memory count_memory(const struct data_file *df, const struct profile *p)
{
	struct count_memory m = { 0, 0, 0 };

	for (size_t i = 0; i < df->nthreads; i++) {
		if (!(df->threads[i].flags & THREAD_CCT))
			continue;
		m.nodes += df->threads[i].stream_len / CCT_RECORD_SIZE;
		m.bytes += df->threads[i].stream_len;
	}
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, "<truncated>") && !*p->funcs[i].object)
			m.truncated_calls += p->funcs[i].calls;
	return m;
}

/* Room for process_end_text()'s line. */
#define PROCESS_END_TEXT 64

/* How long PR ran, from its start to its recorded end, in ns; 0 when the
 * end does not come after the start. */
static double process_ran_ns(const struct data_file *df, const struct data_process *pr)
{
	return pr->end_time > pr->start_time
		       ? (double)(pr->end_time - pr->start_time) * load_ns_per_unit(df)
		       : 0;
}

/* Whether P's thread I is the first line of its thread: one that execs
 * goes on in the new image, a line for each. */
static int first_part(const struct profile *p, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (p->threads[j].tid == p->threads[i].tid && p->threads[j].pid == p->threads[i].pid)
			return 0;
	return 1;
}

/* How PR ended, for its line in the list of processes: "" when it
 * exited, else in parentheses; a literal, or TEXT formatted in. */
static const char *process_end_text(const struct data_file *df, const struct data_process *pr,
				    char text[PROCESS_END_TEXT])
{
	const char *end = data_process_end_name(pr);
	char dbuf[DURATION_BUF];

	if (!end)
		return pr->ended ? " (ended for a reason this callscope does not know)"
		       : df->session.flags & SESSION_SNAPSHOT ? " (still running)"
							   : " (did not exit normally)";
	if (!strcmp(end, "exit"))
		return "";
	snprintf(text, PROCESS_END_TEXT, " (replaced by exec after %s)",
		 format_duration(dbuf, process_ran_ns(df, pr)));
	return text;
}

/* A call's cost in the hooks, measured as INNER + OUTER (clock units
 * times 256), in ns. */
static double calibration_ns(const struct data_file *df, uint32_t inner_x256, uint32_t outer_x256)
{
	return ((double)inner_x256 + outer_x256) / 256.0 * load_ns_per_unit(df);
}

/* What reading the counters cost a call, as the runtime measured it at
 * start-up (the largest of the threads'), in ns; 0 if not known. */
static double counter_cost_ns(const struct data_file *df)
{
	uint32_t units = 0;

	for (size_t i = 0; i < df->nthreads; i++) {
		uint32_t u = df->threads[i].counter_info >> THREAD_COUNTERS_COST_SHIFT;
		if (u > units)
			units = u;
	}
	return units * load_ns_per_unit(df);
}

/* What the main thread's waiting for a CPU did to its calls' times: the
 * clock left it out where the runtime saw the thread's context switches,
 * else it is in them (said when a tenth of the run or more). */
static const char *waiting_said(const struct data_process *pr, char dur[DURATION_BUF])
{
	static char text[160];
	uint64_t in_times = pr->run_wait_ns - pr->run_wait_left_out_ns;
	int noted = report_wait_noted(pr->run_cpu_ns, in_times);

	if (!pr->waits_left_out)
		return noted ? ": its calls' times include the waiting" : "";
	snprintf(text, sizeof(text), ": %s of it left out of its calls' times%s",
		 format_duration(dur, (double)pr->run_wait_left_out_ns),
		 noted ? ", the rest is in them" : "");
	return text;
}

static void describe_exit(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	int json = 0, verbose = 0, opt;

	while ((opt = getopt_long(argc, argv, "i:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 'j': json = 1; break;
		case 'v': verbose = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	input = recording_arg("info", input, argc, argv, optind);

	struct data_file df;
	if (data_file_load(input, &df) != 0)
		return EXIT_FATAL;
	struct load_filter all = { -1, -1 };
	struct load_stats stats;
	struct profile *p = load_profile(&df, &all, &stats);
	const struct data_session *s = &df.session;
	uint64_t duration = s->mono_end > s->mono_start ? s->mono_end - s->mono_start : 0;
	time_t start = (time_t)(s->unix_start_ns / 1000000000u);
	char date[64], exit_text[96], d1[DURATION_BUF], d2[DURATION_BUF], d3[DURATION_BUF], d4[DURATION_BUF];
	char end_text[PROCESS_END_TEXT];
	struct tm tm;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", localtime_r(&start, &tm));
	if (s->flags & SESSION_SNAPSHOT)
		snprintf(exit_text, sizeof(exit_text), "none yet: a snapshot of the program running");
	else
		describe_exit(s->wait_status, exit_text, sizeof(exit_text));
	const char *clock = s->clock == CONTRACT_CLOCK_TSC ? "tsc" : "monotonic";
	struct count_memory cm = count_memory(&df, p);
	size_t nbare;
	struct unsymbolled_object *bare = unsymbolled_objects(p, &nbare);
	const char *mode = s->mode == DATA_MODE_FLIGHT ? "flight"
			   : s->mode == DATA_MODE_COUNT ? "count"
			   : s->mode == DATA_MODE_SAMPLE ? "sample" : "trace";

	if (json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		json_key(&j, "argv");
		json_array_begin(&j);
		session_args(s, json_arg, &j);
		json_array_end(&j);
		char *cwd = xstrndup(s->cwd ? s->cwd : "", s->cwd_len);
		json_kv_string(&j, "cwd", cwd);
		free(cwd);
		json_kv_string(&j, "date", date);
		json_kv_string(&j, "mode", mode);
		json_kv_string(&j, "clock", clock);
		json_kv_double(&j, "ns_per_clock_unit", load_ns_per_unit(&df));
		json_kv_u64(&j, "duration_ns", duration);
		json_kv_string(&j, "exit", exit_text);
		if (df.sum.present) {
			json_key(&j, "sum");
			json_object_begin(&j);
			json_kv_u64(&j, "runs", df.sum.runs);
			json_kv_u64(&j, "processes", df.sum.processes);
			json_kv_u64(&j, "threads", df.sum.threads);
			json_object_end(&j);
		}
		json_key(&j, "pids");
		json_array_begin(&j);
		for (size_t i = 0; i < df.nprocesses; i++)
			if (data_process_is_first_image(&df, i))
				json_u64(&j, df.processes[i].pid);
		json_array_end(&j);
		json_key(&j, "processes");
		json_array_begin(&j);
		for (size_t i = 0; i < df.nprocesses; i++) {
			const struct data_process *pr = &df.processes[i];
			json_object_begin(&j);
			json_kv_u64(&j, "pid", pr->pid);
			json_kv_u64(&j, "ppid", pr->ppid);
			json_kv_u64(&j, "image", pr->image);
			json_kv_string(&j, "exe", pr->exe);
			json_key(&j, "argv");
			json_array_begin(&j);
			process_args(pr, json_arg, &j);
			json_array_end(&j);
			const char *end = data_process_end_name(pr);
			json_key(&j, "exited_normally");
			json_bool(&j, end && !strcmp(end, "exit"));
			json_key(&j, "ended_by");
			json_string(&j, end);
			if (pr->ended && pr->end_time >= pr->start_time)
				json_kv_u64(&j, "ran_ns", (uint64_t)process_ran_ns(&df, pr));
			json_kv_double(&j, "hook_ns_at_start",
				       calibration_ns(&df, pr->start_inner_x256, pr->start_outer_x256));
			if (pr->measured_at_exit)
				json_kv_double(&j, "hook_ns_at_exit",
					       calibration_ns(&df, pr->exit_inner_x256,
							      pr->exit_outer_x256));
			struct hook_cost_choice cost;
			hook_cost_of_process(&df, pr, &cost);
			if (cost.in_place_ns > 0) {
				json_kv_double(&j, "hook_ns_in_place", cost.in_place_ns);
				json_kv_u64(&j, "hook_samples", cost.samples);
				json_kv_double(&j, "hook_ns_in_place_rel_error", cost.rel_error);
			}
			json_kv_double(&j, "hook_ns_subtracted", cost.inner_ns + cost.outer_ns);
			json_kv_double(&j, "hook_ns_subtracted_inner", cost.inner_ns);
			/* a process that did not exit counted no library calls,
			 * but its start measured their hooks */
			if (cost.library_calls)
				json_kv_u64(&j, "library_calls", cost.library_calls);
			if (pr->library_inner_x256 || pr->library_outer_x256) {
				json_kv_double(&j, "library_hook_ns_subtracted",
					       cost.library_inner_ns + cost.library_outer_ns);
				json_kv_double(&j, "library_hook_ns_subtracted_inner",
					       cost.library_inner_ns);
			}
			json_kv_string(&j, "hook_cost_from", cost.in_place ? "samples" : "calibration");
			if (pr->run_cpu_ns) {
				json_kv_u64(&j, "run_cpu_ns", pr->run_cpu_ns);
				json_kv_u64(&j, "run_wait_ns", pr->run_wait_ns);
				json_kv_u64(&j, "run_wait_left_out_ns", pr->run_wait_left_out_ns);
				json_key(&j, "waits_left_out");
				json_bool(&j, pr->waits_left_out);
			}
			json_object_end(&j);
		}
		json_array_end(&j);
		json_key(&j, "threads");
		json_array_begin(&j);
		for (size_t i = 0; i < p->nthreads; i++) {
			const struct thread_info *t = &p->threads[i];
			json_object_begin(&j);
			json_kv_u64(&j, "pid", t->pid);
			json_kv_u64(&j, "tid", t->tid);
			json_kv_u64(&j, "calls", t->calls);
			json_kv_u64(&j, "lost_events", t->lost_events);
			json_kv_u64(&j, "overwritten_events", t->overwritten_events);
			json_kv_u64(&j, "duration_ns", t->end_ns - t->start_ns);
			json_key(&j, "forked");
			json_bool(&j, !!(t->flags & THREAD_FORKED));
			json_object_end(&j);
		}
		json_array_end(&j);
		json_kv_u64(&j, "events", stats.events);
		json_kv_u64(&j, "calls", p->calls);
		json_kv_u64(&j, "lost_events", p->lost_events);
		json_kv_u64(&j, "overwritten_events", p->overwritten_events);
		json_kv_u64(&j, "marks", stats.marks);
		json_kv_u64(&j, "tasks", stats.tasks);
		json_kv_u64(&j, "signals", stats.signals);
		json_kv_u64(&j, "stops", stats.stops);
		report_hooks_json(&j, p);
		json_kv_u64(&j, "file_bytes", df.size);
		if (s->mode == DATA_MODE_COUNT) {
			json_kv_u64(&j, "count_nodes", cm.nodes);
			json_kv_u64(&j, "count_bytes", cm.bytes);
			json_kv_u64(&j, "truncated_calls", cm.truncated_calls);
			json_key(&j, "call_stats");
			json_bool(&j, !profile_has_untimed_calls(p));
		}
		json_key(&j, "counters");
		json_array_begin(&j);
		for (size_t i = 0; i < df.ncounters; i++)
			json_string(&j, df.counters[i].name);
		json_array_end(&j);
		json_kv_string(&j, "counter_read", counter_method(&df));
		if (p->samples)
			report_samples_json_fields(&j, p);
		json_key(&j, "objects_without_symbols");
		json_array_begin(&j);
		for (size_t i = 0; i < nbare; i++) {
			json_object_begin(&j);
			json_kv_string(&j, "path", bare[i].path);
			if (bare[i].package)
				json_kv_string(&j, "package", bare[i].package);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_kv_double(&j, "counter_read_ns_per_call", counter_cost_ns(&df));
		patch_info_json(&j, &df);
		json_object_end(&j);
		json_finish(&j);
	} else {
		int first = 1;
		printf("program:      ");
		session_args(s, print_arg, &first);
		printf("\ndirectory:    %.*s\n", (int)s->cwd_len, s->cwd ? s->cwd : "");
		printf("recorded:     %s\n", date);
		printf("mode:         %s\n", s->mode == DATA_MODE_FLIGHT
			       ? "flight (each thread kept its newest events)"
			       : s->mode == DATA_MODE_COUNT
			       ? p->time_sample_period_ns
			       ? "count (calls summed per call path in the program, timed by samples)"
			       : "count (calls and time summed per call path in the program)"
			       : s->mode == DATA_MODE_SAMPLE
			       ? "sample (timer samples only, no traced calls)"
			       : "trace (every function entry and exit)");
		printf("clock:        %s (%.4f ns per unit)\n", clock, load_ns_per_unit(&df));
		printf("duration:     %s\n", format_duration(d1, (double)duration));
		printf("exit:         %s\n", exit_text);
		if (df.sum.present)
			printf("sum of:       %llu runs (%llu processes, %llu threads), summed by "
			       "'callscope merge': the program, directory and exit are the "
			       "earliest run's, the duration all of theirs\n",
			       (unsigned long long)df.sum.runs,
			       (unsigned long long)df.sum.processes,
			       (unsigned long long)df.sum.threads);
		size_t processes = 0;
		for (size_t i = 0; i < df.nprocesses; i++)
			processes += data_process_is_first_image(&df, i);
		if (processes < df.nprocesses)	/* the list has a line per image */
			printf("processes:    %zu (and %zu exec%s)\n", processes,
			       df.nprocesses - processes, df.nprocesses - processes == 1 ? "" : "s");
		else
			printf("processes:    %zu\n", df.nprocesses);
		for (size_t i = 0; i < df.nprocesses; i++) {
			const struct data_process *pr = &df.processes[i];
			printf("  pid %-8u parent %-8u %s%s\n", pr->pid, pr->ppid, pr->exe,
			       process_end_text(&df, pr, end_text));
			if (pr->cmdline_len) {
				int first_arg = 1;
				/* which of a build's many cc1 runs this one was */
				printf("               command: ");
				process_args(pr, print_arg, &first_arg);
				putchar('\n');
			}
			struct hook_cost_choice cost;
			hook_cost_of_process(&df, pr, &cost);
			if (pr->measured_at_exit)
				printf("               hooks measured at %s a call at start, %s at "
				       "exit%s\n",
				       format_duration(d1, calibration_ns(&df, pr->start_inner_x256,
									  pr->start_outer_x256)),
				       format_duration(d2, calibration_ns(&df, pr->exit_inner_x256,
									  pr->exit_outer_x256)),
				       cost.in_place ? "" : ": the lower is subtracted");
			else if (pr->calibrated_at_exit && s->mode != DATA_MODE_COUNT)
				/* a short process: the run's figure alone */
				printf("               hooks measured at %s a call at start, by the "
				       "process it came from; not again at exit: a short process\n",
				       format_duration(d1, calibration_ns(&df, pr->start_inner_x256,
									  pr->start_outer_x256)));
			if (cost.in_place_ns > 0)
				printf("               hooks in place: %s a call (%s inside the callee) "
				       "from %llu samples beside the trace, \u00b1%.0f %%%s\n",
				       format_duration(d1, cost.in_place_ns),
				       format_duration(d2, cost.inner_ns), (unsigned long long)cost.samples,
				       100 * cost.rel_error,
				       cost.in_place ? ": subtracted"
						     : ": too few to use, the calibration is subtracted");
			if (pr->library_inner_x256 || pr->library_outer_x256) {
				char at_exit[64] = "", counted[40] = "";
				if (pr->measured_at_exit)
					snprintf(at_exit, sizeof(at_exit), ", %s at exit",
						 format_duration(d2, calibration_ns(
									     &df, pr->library_exit_inner_x256,
									     pr->library_exit_outer_x256)));
				if (cost.library_calls)
					snprintf(counted, sizeof(counted), " %llu,",
						 (unsigned long long)cost.library_calls);
				printf("               library calls:%s their hooks measured at %s a "
				       "call at start%s; %s subtracted (%s inside the callee)\n",
				       counted,
				       format_duration(d1, calibration_ns(&df, pr->library_start_inner_x256,
									  pr->library_start_outer_x256)),
				       at_exit,
				       format_duration(d3, cost.library_inner_ns + cost.library_outer_ns),
				       format_duration(d4, cost.library_inner_ns));
			}
			if (pr->run_cpu_ns)
				printf("               the main thread waited for a CPU %.0f %% of its "
				       "run (%s running)%s\n",
				       100 * report_wait_share(pr->run_cpu_ns, pr->run_wait_ns),
				       format_duration(d1, (double)pr->run_cpu_ns),
				       waiting_said(pr, d2));
		}
		size_t threads = 0;
		for (size_t i = 0; i < p->nthreads; i++)
			threads += first_part(p, i);
		printf("threads:      %zu%s\n", threads,
		       threads < p->nthreads ? " (a line for each image a thread ran in)" : "");
		for (size_t i = 0; i < p->nthreads; i++) {
			const struct thread_info *t = &p->threads[i];
			printf("  tid %-8u pid %-8u %12llu calls %10llu lost%s\n", t->tid, t->pid,
			       (unsigned long long)t->calls, (unsigned long long)t->lost_events,
			       t->flags & THREAD_FORKED ? "  (forked child)" : "");
		}
		printf("events:       %llu\n", (unsigned long long)stats.events);
		printf("calls:        %llu\n", (unsigned long long)p->calls);
		printf("lost events:  %llu\n", (unsigned long long)p->lost_events);
		if (s->mode == DATA_MODE_FLIGHT)
			printf("overwritten:  %llu events (older than what the rings kept)\n",
			       (unsigned long long)p->overwritten_events);
		if (s->mode == DATA_MODE_COUNT)
			printf("count memory: %llu records in %llu bytes (call paths and functions' "
			       "statistics); "
			       "%llu calls under <truncated>\n", (unsigned long long)cm.nodes,
			       (unsigned long long)cm.bytes, (unsigned long long)cm.truncated_calls);
		if (s->mode == DATA_MODE_COUNT && !p->time_sample_period_ns)
			printf("call stats:   %s\n", profile_has_untimed_calls(p)
			       ? "not kept (shortest, longest, spread, periods, histograms: "
				 "record --call-stats keeps them)"
			       : "kept (shortest, longest, spread, periods, histograms)");
		printf("marks:        %llu marks, %llu task switches, %llu stops, %llu fatal signals\n",
		       (unsigned long long)stats.marks, (unsigned long long)stats.tasks,
		       (unsigned long long)stats.stops, (unsigned long long)stats.signals);
		report_hooks_line(stdout, p, "overhead:     ");
		report_unhooked(stdout, p, "unhooked:     ");
		patch_info_text(stdout, &df, "patched:      ", verbose);
		for (size_t c = 0; c < df.ncounters; c++)
			printf("%s%s", c ? ", " : "counters:     ", df.counters[c].name);
		if (df.ncounters && counter_cost_ns(&df) > 0)
			printf(", read with %s: %s a call, part of the overhead above\n",
			       counter_method(&df), format_duration(d1, counter_cost_ns(&df)));
		else if (df.ncounters)
			printf(", read with %s (its cost is in the overhead above)\n",
			       counter_method(&df));
		if (p->samples) {
			char *method = report_samples_method(p);
			char *source = report_samples_source_note(p);
			printf("samples:      %llu of %s%s; stacks by %s, %llu truncated "
			       "(not reaching the thread's first frame); %llu lost\n",
			       (unsigned long long)p->samples, report_samples_clock(p),
			       source, method, (unsigned long long)p->samples_truncated,
			       (unsigned long long)p->samples_lost);
			free(source);
			free(method);
		}
		if (nbare)
			printf("symbols:      %zu object%s without symbols (functions named "
			       "OBJECT+0xSTART, or by their dynamic symbols); separate debug files "
			       "by build ID or .gnu_debuglink would name them:\n", nbare,
			       nbare == 1 ? "" : "s");
		for (size_t i = 0; i < nbare; i++) {
			if (bare[i].package)
				printf("  %s (package %s: install %s-dbgsym from the debug archive, "
				       "or its -dbg package)\n", bare[i].path, bare[i].package,
				       bare[i].package);
			else
				printf("  %s (no package owns it: rebuild it with -g, or keep its "
				       "debug file)\n", bare[i].path);
		}
		printf("file size:    %zu bytes (%.2f bytes per call)\n", df.size,
		       p->calls ? (double)df.size / (double)p->calls : 0.0);
	}
	unsymbolled_objects_free(bare, nbare);
	int salvaged = stats.salvaged;
	profile_free(p);
	data_file_release(&df);
	return salvaged ? EXIT_SALVAGED : 0;
}
