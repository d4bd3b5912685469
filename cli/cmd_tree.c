/*
 * callscope tree [-i PATH] [--threshold PCT] [--focus SYMSPEC] [--depth N]
 *                [--sort=COLUMN] [--json] [--pid=PID] [--tid=TID]
 *                [--signal-filter=F]
 *
 * The calling-context tree.  One replay feeds two models: the profile
 * (function names, calls, losses and hook cost for the header) and the
 * tree itself.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/recording_arg.h"
#include "cli/threshold_arg.h"
#include "cli/demangle_option.h"
#include "cli/find_function.h"
#include "load/load.h"
#include "die.h"
#include "model/aggregate.h"
#include "model/samples.h"
#include "xalloc.h"
#include "model/cct.h"
#include "report/tree.h"

static const char usage_text[] =
	"usage: callscope tree [-i PATH | PATH] [--threshold PCT] [--focus SYMSPEC] [--depth N]\n"
	"                      [--sort=COLUMN] [--json] [--pid=PID] [--tid=TID]\n"
	"                      [--signal-filter=F]\n"
	"\n"
	"  -i, --input PATH      recording to read, or PATH alone (default: callscope.data)\n"
	"  -t, --threshold PCT   hide call paths below PCT % of the root's total\n"
	"  -f, --focus SYMSPEC   re-root at a function: NAME or OBJECT:NAME\n"
	"  -d, --depth N         show N levels of calls below the root\n"
	"  -s, --sort COLUMN     order of children: total (default), self, calls, name\n"
	"      --json            machine-readable output (see docs/tree.md)\n"
	"      --pid PID         only this process\n"
	"      --tid TID         only this thread\n"
	"      --signal-filter F signal handlers: separate (default), exclude or none\n"
	NO_DEMANGLE_HELP;

/* The visitor: every event goes to both builders. */
struct tree_state {
	struct profile *p;
	struct cct *t;
	struct thread_builder *pb;
	struct cct_builder *tb;
	/* what the tree takes: the time and, when the recording has counters
	 * (record -e: COUNTED), their latest values; 0 without */
	int counted;
	uint64_t values[CCT_NMETRICS];
};

static void tree_counters(void *ctx, const uint64_t c[CONTRACT_COUNTERS_MAX])
{
	struct tree_state *s = ctx;
	profile_counters(s->pb, c);
	if (s->counted) {
		s->values[CCT_C1] = c[0];
		s->values[CCT_C2] = c[1];
	}
}

static void tree_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	struct tree_state *s = ctx;
	s->pb = profile_thread_begin(s->p, info, inner, outer);
	s->tb = cct_thread_begin(s->t, info->start_ns, inner, outer);
	if (info->hooks_in_place)
		cct_sum_short_calls(s->tb);
}

static void tree_enter(void *ctx, uint32_t fn, uint64_t t)
{
	struct tree_state *s = ctx;
	profile_enter(s->pb, fn, t);
	s->values[CCT_TIME] = t;
	cct_enter_values(s->tb, fn, s->values);
}

static void tree_open(void *ctx, uint32_t fn, uint64_t t)
{
	struct tree_state *s = ctx;
	profile_open_frame(s->pb, fn, t);
	s->values[CCT_TIME] = t;
	cct_open_frame_values(s->tb, fn, s->values);
}

static void tree_exit(void *ctx, uint64_t t, int kind)
{
	struct tree_state *s = ctx;
	profile_exit(s->pb, t, (enum exit_kind)kind);
	s->values[CCT_TIME] = t;
	cct_exit_values(s->tb, s->values, (enum exit_kind)kind);
}

static void tree_note(void *ctx, const struct replay_note *n)
{
	struct tree_state *s = ctx;
	if (n->kind == NOTE_OVERWRITTEN)
		profile_thread_overwritten(s->pb, n->value);
}

static void tree_library_cost(void *ctx, uint64_t library_q, uint64_t library_calls)
{
	profile_thread_library_cost(((struct tree_state *)ctx)->pb, library_q, library_calls);
}

static void tree_end(void *ctx, uint64_t t)
{
	struct tree_state *s = ctx;
	profile_thread_end(s->pb, t);
	s->values[CCT_TIME] = t;
	cct_thread_end_values(s->tb, s->values);
	s->pb = NULL;
	s->tb = NULL;
}

/* A timer sample: its stack is a call path of the tree too. */
static void tree_sample(void *ctx, const struct replay_sample *smp)
{
	struct tree_state *s = ctx;

	profile_add_sample(s->p, smp->funcs, smp->n, smp->weight, smp->flags, smp->outside,
			   smp->missed);
	cct_add_sample(s->t, smp->funcs, smp->n, smp->weight);
}

/* An aggregate-mode thread: its call paths are the tree's, summed in. */
static void tree_aggregate(void *ctx, const struct thread_info *info,
			   const struct aggregate_thread *at)
{
	struct tree_state *s = ctx;

	if (profile_add_aggregate(s->p, info, at) == 0)
		cct_add_aggregate(s->t, at);
}

/*
 * Replays the threads FILTER selects from the recording INPUT into S's
 * new profile and tree.  Returns 0, or -1 after one error line.
 */
static int tree_of_recording(const char *input, const struct load_filter *filter,
			     struct tree_state *s, struct load_stats *stats)
{
	struct data_file df;
	if (data_file_load(input, &df) != 0)
		return -1;

	s->p = profile_new();
	s->t = cct_new(FUNC_NONE);
	s->counted = df.ncounters > 0;
	s->p->ncounters = df.ncounters;
	for (size_t i = 0; i < df.ncounters; i++) {
		s->p->counter_names[i] = xstrdup(df.counters[i].name);
		s->t->metrics |= 1u << (CCT_C1 + i);
	}
	const struct replay_visitor v = {
		.ctx = s,
		.thread_begin = tree_begin,
		.enter = tree_enter,
		.open_frame = tree_open,
		.exit = tree_exit,
		.thread_end = tree_end,
		.note = tree_note,
		.counters = tree_counters,
		.sample = tree_sample,
		.library_cost = tree_library_cost,
	};
	struct load_stats more;
	load_process_figures(&df, filter, s->p);
	load_replay(&df, filter, s->p, &v, stats);
	memset(&more, 0, sizeof(more));
	load_aggregates(&df, filter, s->p, tree_aggregate, s, &more);
	stats->salvaged |= more.salvaged;
	profile_name_homonyms(s->p);
	data_file_release(&df);
	if (!s->p->nthreads && (filter->pid >= 0 || filter->tid >= 0))
		die("no thread in '%s' matches the --pid/--tid given; see 'callscope info'", input);
	return 0;
}

static long parse_depth(const char *value)
{
	char *end;
	long v = strtol(value, &end, 10);

	if (end == value || *end || v < 0 || v > 1000000000)
		usage_die("--depth wants a number of levels (0 or more), not '%s'", value);
	return v;
}

int cmd_tree(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "threshold", required_argument, NULL, 't' },
		{ "focus", required_argument, NULL, 'f' },
		{ "depth", required_argument, NULL, 'd' },
		{ "sort", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'P' },
		{ "tid", required_argument, NULL, 'T' },
		{ "signal-filter", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	struct tree_options o;
	struct load_filter filter = { -1, -1 };
	int opt;

	memset(&o, 0, sizeof(o));
	o.depth = -1;
	tree_sort_parse("total", &o.sort);
	while ((opt = getopt_long(argc, argv, "i:t:f:d:s:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 't': o.threshold_pct = threshold_arg(optarg); break;
		case 'f': o.focus = optarg; break;
		case 'd': o.depth = parse_depth(optarg); break;
		case 's':
			if (tree_sort_parse(optarg, &o.sort))
				usage_die("unknown sort column '%s'; use %s", optarg, tree_sort_names());
			break;
		case 'j': o.json = 1; break;
		case 'P': filter.pid = load_parse_id("--pid", optarg); break;
		case 'T': filter.tid = load_parse_id("--tid", optarg); break;
		case 'G': filter.signals = load_parse_signal_filter(optarg); break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	input = recording_arg("tree", input, argc, argv, optind);

	struct tree_state s = { NULL, NULL, NULL, NULL, 0, { 0 } };
	struct load_stats stats;
	memset(&stats, 0, sizeof(stats));
	if (load_path_is_prf(input)) {
		/* a .prf file is one profile: no processes or threads to pick */
		if (filter.pid >= 0 || filter.tid >= 0)
			usage_die("'%s' is a .prf file: --pid and --tid do not apply", input);
		s.p = load_prf_tree(input, &s.t);
	} else if (tree_of_recording(input, &filter, &s, &stats) != 0) {
		return EXIT_FATAL;
	}
	if (o.sort.kind == TREE_SORT_METRIC && !cct_has_metric(s.t, o.sort.metric))
		die("'%s' recorded no counter to sort by; record with counters or sort by "
		    "total, self, calls or name", input);

	struct cct *shown = s.t;
	if (o.focus)
		shown = cct_focus(s.t, find_function(s.p, o.focus, "--focus", input));
	for (size_t c = 0; !o.json && c < s.p->ncounters; c++)
		printf("%s c%zu = %s%s", c ? "," : "#", c + 1, s.p->counter_names[c],
		       c + 1 == s.p->ncounters ? "\n" : "");
	report_tree(stdout, shown, s.p, &o);
	if (shown != s.t)
		cct_free(shown);
	cct_free(s.t);
	profile_free(s.p);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
