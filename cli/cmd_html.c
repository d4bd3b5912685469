/*
 * callscope html [-i PATH] [-o FILE] [--base PATH] [--pid PID] [--tid TID]
 *                [--max-size MB] [--max-nodes N] [--timeline-calls N] [--no-compress]
 *                [--static]
 *
 * One self-contained HTML page: flame graph, call tree, top functions,
 * timeline, diff against a base recording.  See docs/html.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/recording_arg.h"
#include "cli/demangle_option.h"
#include "cli/function_lines.h"
#include "load/load.h"
#include "load/static_calls.h"
#include "die.h"
#include "formats/cursor.h"
#include "outfile.h"
#include "report/html.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope html [-i PATH | PATH] [-o FILE] [--base PATH] [--pid PID] [--tid TID]\n"
	"                      [--max-size MB] [--max-nodes N] [--timeline-calls N] [--static]\n"
	"\n"
	"  -i, --input PATH        recording to read, or PATH alone (default: callscope.data)\n"
	"  -o, --output FILE       page to write (default: callscope.html; - for stdout)\n"
	"      --base PATH         compare with this recording (a differential report)\n"
	"      --pid PID           only this process (of the recording, not the base)\n"
	"      --tid TID           only this thread (of the recording, not the base)\n"
	"      --max-size MB       size budget of the page (default 32; 0: none); the\n"
	"                          timeline, then the smallest call paths are cut to fit\n"
	"      --max-nodes N       call paths kept at most (default 8000000)\n"
	"      --timeline-calls N  calls on the timeline at most, the longest first\n"
	"                          (default 1000000; 0: no timeline)\n"
	"      --no-compress       store the data uncompressed (for debugging)\n"
	"      --static            also the calls in the code that never ran, greyed\n"
	NO_DEMANGLE_HELP;

/* One recording, loaded: its flat profile and its call-path tree. */
struct loaded {
	struct data_file df;
	struct profile *prof;
	struct html_tree *tree;
	struct html_lines *lines;	/* samples per source line */
	char *title;
	int salvaged;
};

/* The replay's visitor: CTX is the struct loaded being filled. */
static void tree_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	html_tree_thread_begin(((struct loaded *)ctx)->tree, info, inner, outer);
}

static void tree_enter(void *ctx, uint32_t fn, uint64_t t)
{
	html_tree_enter(((struct loaded *)ctx)->tree, fn, t);
}

static void tree_open(void *ctx, uint32_t fn, uint64_t t)
{
	html_tree_open_frame(((struct loaded *)ctx)->tree, fn, t);
}

static void tree_exit(void *ctx, uint64_t t, int kind)
{
	html_tree_exit(((struct loaded *)ctx)->tree, t, kind);
}

static void tree_counters(void *ctx, const uint64_t values[CONTRACT_COUNTERS_MAX])
{
	html_tree_counters(((struct loaded *)ctx)->tree, values);
}

static void tree_end(void *ctx, uint64_t t)
{
	html_tree_thread_end(((struct loaded *)ctx)->tree, t);
}

/* A sample: its stack is a call path, its PC's line a source line. */
static void tree_sample(void *ctx, const struct replay_sample *s)
{
	struct loaded *l = ctx;

	html_tree_sample(l->tree, s->funcs, s->n, s->weight);
	html_lines_add(l->lines, s->file, s->line, s->funcs[0], s->weight);
}

/* An aggregate-mode thread (record --mode=count): its call paths, summed
 * in the program, go into the tree as they are; it has no timeline. */
static void tree_aggregate(void *ctx, const struct thread_info *info,
			   const struct aggregate_thread *at)
{
	html_tree_add_aggregate(ctx, info, at);
}

/* A sum's samples by PC (load_sum_samples()): only their source lines,
 * as their stacks are in the tree already with the sum's call paths. */
static void sum_line_sample(void *ctx, const struct replay_sample *s)
{
	struct loaded *l = ctx;

	html_lines_add(l->lines, s->file, s->line, s->funcs[0], s->weight);
}

/* The recorded command line, or the file's name when it has none. */
static char *session_title(const struct data_file *df, const char *path)
{
	const struct data_session *s = &df->session;
	struct cursor c;
	char *title = xstrdup("");

	cursor_init(&c, s->argv_blobs, s->argv_blobs, s->argv_blobs + s->argv_len);
	for (uint32_t i = 0; s->argv_blobs && i < s->argc; i++) {
		size_t len;
		const uint8_t *b = cursor_blob(&c, &len, "argument");
		if (!b)
			break;
		char *next = xasprintf("%s%s%.*s", title, i ? " " : "", (int)len, (const char *)b);
		free(title);
		title = next;
	}
	if (!*title) {
		free(title);
		title = xstrdup(path);
	}
	return title;
}

static void check_filter(const struct data_file *df, const struct load_filter *f,
			 const char *path)
{
	if (f->pid < 0 && f->tid < 0)
		return;
	for (size_t i = 0; i < df->nthreads; i++)
		if ((f->pid < 0 || df->threads[i].pid == f->pid) &&
		    (f->tid < 0 || df->threads[i].tid == f->tid))
			return;
	die("no thread in '%s' matches the --pid/--tid given; see 'callscope info'", path);
}

static int load(const char *path, const struct load_filter *f, size_t max_calls,
		struct loaded *l)
{
	struct load_stats stats;
	struct replay_visitor v = { NULL, tree_begin, tree_enter, tree_open, tree_exit, tree_end,
				    NULL, tree_counters, tree_sample, 0 };

	memset(l, 0, sizeof(*l));
	if (data_file_load(path, &l->df) != 0)
		return -1;
	check_filter(&l->df, f, path);
	/* The flat numbers exactly as `callscope report` computes them;
	 * then a second replay builds the call paths, its functions
	 * numbered as the profile's. */
	l->prof = load_profile(&l->df, f, &stats);
	l->salvaged = stats.salvaged;
	l->tree = html_tree_new(l->prof, max_calls);
	l->lines = html_lines_new();
	v.ctx = l;
	/* a sample's line takes the symbolizer's slower lookup: only when
	 * there are samples */
	v.sample_lines = l->prof->samples > 0;
	load_replay(&l->df, f, l->prof, &v, &stats);
	load_aggregates(&l->df, f, l->prof, tree_aggregate, l->tree, &stats);
	const struct replay_visitor lines = { .ctx = l, .sample = sum_line_sample, .sample_lines = 1 };
	load_sum_samples(&l->df, f, l->prof, &lines, &stats);
	l->salvaged |= stats.salvaged;
	html_tree_finish(l->tree);
	/* without samples, the source view shows where the traced functions
	 * begin (not for a binary that could not be trusted: its functions
	 * have no lines to give, and the load said so already) */
	if (!l->prof->samples && !l->salvaged) {
		function_lines_load(&l->df, l->prof);
		html_lines_from_functions(l->lines, l->prof);
	}
	html_lines_finish(l->lines);
	l->title = session_title(&l->df, path);
	return 0;
}

/* --static: the calls in the recorded programs' code that never ran, as
 * graph --static finds them (not the libraries they call into). */
static void add_static_calls(struct loaded *l)
{
	char **exes = xcalloc(l->df.nprocesses + 1, sizeof(*exes));

	for (size_t i = 0; i < l->df.nprocesses; i++)
		exes[i] = l->df.processes[i].exe;
	static_calls_add(l->prof, exes, l->df.nprocesses);
	free(exes);
}

static void loaded_release(struct loaded *l)
{
	html_tree_free(l->tree);
	html_lines_free(l->lines);
	profile_free(l->prof);
	data_file_release(&l->df);
	free(l->title);
}

static uint64_t parse_count(const char *option, const char *value)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(value, &end, 10);

	if (end == value || *end || errno || value[0] == '-')
		usage_die("%s wants a number, not '%s'", option, value);
	return v;
}

/* Writes the page through an outfile (outfile.h): a reader never sees
 * half a page, and a symlink at PATH is replaced, not followed. */
static int write_page(const char *path, const struct html_input *in,
		      const struct html_options *o, struct html_result *res)
{
	struct outfile out;

	if (outfile_open(&out, path, OUTFILE_DASH_IS_STDOUT | OUTFILE_READABLE) != 0)
		return -1;
	if (report_html(out.f, in, o, res) != 0)
		return outfile_fail(&out, errno);
	return outfile_commit(&out);
}

int cmd_html(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "base", required_argument, NULL, 'b' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "max-size", required_argument, NULL, 'S' },
		{ "max-nodes", required_argument, NULL, 'N' },
		{ "timeline-calls", required_argument, NULL, 'C' },
		{ "no-compress", no_argument, NULL, 'Z' },
		{ "static", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL, *output = "callscope.html", *base_path = NULL;
	struct load_filter filter = { -1, -1 };
	struct html_options o = { 32ull << 20, 8000000, 1000000, 1 };
	int opt, with_static = 0;

	while ((opt = getopt_long(argc, argv, "i:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 'o': output = optarg; break;
		case 'b': base_path = optarg; break;
		case 'p': filter.pid = load_parse_id("--pid", optarg); break;
		case 't': filter.tid = load_parse_id("--tid", optarg); break;
		case 'S': {
			uint64_t mb = parse_count("--max-size", optarg);
			if (mb > (1ull << 20))
				usage_die("--max-size wants megabytes, at most %llu, not '%s'",
					  1ull << 20, optarg);
			o.max_bytes = mb << 20;
			break;
		}
		case 'N': o.max_nodes = (size_t)parse_count("--max-nodes", optarg); break;
		case 'C': o.max_calls = (size_t)parse_count("--timeline-calls", optarg); break;
		case 'Z': o.compress = 0; break;
		case 'T': with_static = 1; break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	input = recording_arg("html", input, argc, argv, optind);
	if (with_static && base_path)
		usage_die("--static does not go with --base: a comparison shows what ran in each");

	struct loaded cur, base;
	if (load(input, &filter, o.max_calls, &cur) != 0)
		return EXIT_FATAL;
	/* The base is another run: its process and thread ids are others,
	 * so it is taken whole. */
	struct load_filter whole = { -1, -1 };
	if (base_path && load(base_path, &whole, 0, &base) != 0) {
		loaded_release(&cur);
		return EXIT_FATAL;
	}
	if (with_static)
		add_static_calls(&cur);
	struct html_input in = { cur.title, cur.prof, cur.tree, cur.salvaged,
				 NULL, NULL, 0, NULL, cur.lines, with_static };
	if (base_path) {
		in.base_title = base.title;
		in.base = base.prof;
		in.base_salvaged = base.salvaged;
		in.diff = html_diff_new(cur.prof, cur.tree, base.prof, base.tree);
	}
	struct html_result res;
	int rc = write_page(output, &in, &o, &res);
	if (!rc && strcmp(output, "-"))
		printf("wrote '%s': %llu bytes, %llu call paths, %llu calls on the timeline\n",
		       output, (unsigned long long)res.bytes,
		       (unsigned long long)res.cuts.nodes_kept,
		       (unsigned long long)res.cuts.calls_kept);
	int salvaged = cur.salvaged || (base_path && base.salvaged);
	html_diff_free(in.diff);
	if (base_path)
		loaded_release(&base);
	loaded_release(&cur);
	if (rc)
		return EXIT_FATAL;
	return salvaged ? EXIT_SALVAGED : 0;
}
