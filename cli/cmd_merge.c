/*
 * callscope merge -o OUT [--force] [--keep-events] A.data B.data ...
 *
 * Sums runs of one program.  By default OUT is a summed profile
 * (cli/merge_sum.h): call paths and per-function statistics whose size
 * depends on the program, not on the number of runs, built one input at
 * a time so memory does not grow with their number either; sums merge
 * again into the same sum.  --keep-events instead copies every input's
 * processes and threads (formats/native_merge.h), for replay.  Runs of
 * different programs are refused (the main executable's build ID tells)
 * unless --force.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/export_load.h"
#include "cli/merge_sum.h"
#include "outfile.h"
#include "die.h"
#include "formats/native_merge.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope merge -o OUT [--force] [--keep-events] A.data B.data ...\n"
	"\n"
	"  -o, --output OUT  data file to write (required)\n"
	"      --force       merge runs of different programs too\n"
	"      --keep-events keep every input's events (for replay) instead of\n"
	"                    summing call paths: OUT grows with the inputs\n";

/* "PATH (build ID HEX)", malloc'd, for messages. */
static char *describe(const struct data_object *o)
{
	if (!o)
		return xstrdup("no recorded executable");
	char *hex = xmalloc(o->build_id_len * 2 + 1);
	for (size_t i = 0; i < o->build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", o->build_id[i]);
	hex[o->build_id_len * 2] = '\0';
	char *s = o->build_id_len ? xasprintf("%s, build ID %s", o->path, hex) : xstrdup(o->path);
	free(hex);
	return s;
}

/* Whether two runs are of the same program: the same build ID, or, when
 * either has none, the same executable path. */
static int same_program(const struct data_object *a, const struct data_object *b)
{
	if (!a || !b)
		return !a && !b;
	if (a->build_id_len && b->build_id_len)
		return a->build_id_len == b->build_id_len &&
		       !memcmp(a->build_id, b->build_id, a->build_id_len);
	return !strcmp(a->path, b->path);
}

/* Dies saying PATH (main object O) is not a run of FIRST_PATH's program. */
static void refuse_other_program(const char *path, const struct data_object *o,
				 const char *first_path, const struct data_object *first)
{
	char *da = describe(first), *db = describe(o);
	die("'%s' is a run of another program (%s) than '%s' (%s); merge runs of one "
	    "program, or give --force", path, db, first_path, da);
}

static int merge_events(char **paths, size_t n, const char *output, int force)
{
	struct data_file *in = xcalloc(n, sizeof(*in));
	for (size_t k = 0; k < n; k++) {
		if (data_file_load(paths[k], &in[k]) != 0)
			exit(EXIT_FATAL);
		/* a sum's events were added up when it was made: copying the
		 * rest would keep a part of it and drop the sum */
		if (in[k].sum.present)
			die("'%s' is a summed profile, which has no events to keep; merge it "
			    "without --keep-events", paths[k]);
		/* the counters' names are the first input's for every thread */
		if (k > 0)
			merge_check_counters(in[0].counters, in[0].ncounters, &in[k], paths[k]);
	}

	const struct data_object *first = export_main_object(&in[0]);
	for (size_t k = 1; k < n && !force; k++) {
		const struct data_object *o = export_main_object(&in[k]);
		if (same_program(first, o))
			continue;
		refuse_other_program(paths[k], o, paths[0], first);
	}

	struct outfile out;
	struct data_merge_result res;
	char err[256];
	if (outfile_open(&out, output, OUTFILE_DASH_IS_STDOUT) != 0)
		exit(EXIT_FATAL);
	if (data_merge(out.f, in, n, &res, err, sizeof(err)) != 0) {
		if (ferror(out.f)) {	/* writing failed, not the inputs */
			outfile_fail(&out, errno);
			exit(EXIT_FATAL);
		}
		outfile_abort(&out);
		die("cannot merge into '%s': %s", output, err);
	}
	if (outfile_commit(&out) != 0)
		exit(EXIT_FATAL);
	if (res.worst_rate_ratio > 1.01)
		warning("'%s' was recorded with a clock rate %.1f%% away from that of '%s': its "
			"times are off by as much in '%s'",
			paths[res.worst_input], (res.worst_rate_ratio - 1) * 100,
			paths[0], output);
	if (res.skipped_sections)
		warning("%zu section%s of a kind this callscope does not know %s left out of '%s'",
			res.skipped_sections, res.skipped_sections == 1 ? "" : "s",
			res.skipped_sections == 1 ? "was" : "were", output);

	size_t procs = 0, threads = 0;
	for (size_t k = 0; k < n; k++) {
		procs += in[k].nprocesses;
		threads += in[k].nthreads;
		data_file_release(&in[k]);
	}
	free(in);
	fprintf(stderr, "callscope: merged %zu recording%s (%zu process%s, %zu thread%s) into '%s'\n",
		n, n == 1 ? "" : "s", procs, procs == 1 ? "" : "es", threads,
		threads == 1 ? "" : "s", output);
	return 0;
}

/* The inputs summed one at a time: only the sum and one input in memory. */
static int merge_sums(char **paths, size_t n, const char *output, int force)
{
	struct merge_sum m;
	struct data_object first;
	int have_first = 0;

	merge_sum_init(&m);
	memset(&first, 0, sizeof(first));
	for (size_t k = 0; k < n; k++) {
		struct data_file df;
		if (data_file_load(paths[k], &df) != 0)
			exit(EXIT_FATAL);
		const struct data_object *o = export_main_object(&df);
		if (k == 0 && o) {
			first = *o;
			first.path = xstrdup(o->path);
			uint8_t *id = xmalloc(o->build_id_len + 1);
			memcpy(id, o->build_id, o->build_id_len);
			first.build_id = id;
			first.segs = NULL;
			first.nseg = 0;
			have_first = 1;
		} else if (!force && !same_program(have_first ? &first : NULL, o)) {
			refuse_other_program(paths[k], o, paths[0], have_first ? &first : NULL);
		}
		merge_sum_add(&m, &df, paths[k]);
		data_file_release(&df);
	}

	struct outfile out;
	if (outfile_open(&out, output, OUTFILE_DASH_IS_STDOUT) != 0)
		exit(EXIT_FATAL);
	if (sum_write(out.f, &m.sum, &m.origin) != 0) {
		outfile_fail(&out, errno);
		exit(EXIT_FATAL);
	}
	if (outfile_commit(&out) != 0)
		exit(EXIT_FATAL);
	fprintf(stderr, "callscope: summed %zu recording%s (%llu run%s, %llu process%s, %llu "
		"thread%s) into '%s'\n", n, n == 1 ? "" : "s", (unsigned long long)m.sum.runs,
		m.sum.runs == 1 ? "" : "s", (unsigned long long)m.sum.processes,
		m.sum.processes == 1 ? "" : "es", (unsigned long long)m.sum.threads,
		m.sum.threads == 1 ? "" : "s", output);
	if (have_first) {
		free(first.path);
		free((void *)first.build_id);
	}
	merge_sum_release(&m);
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'F' },
		{ "keep-events", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	int force = 0, keep_events = 0, opt;

	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': output = optarg; break;
		case 'F': force = 1; break;
		case 'K': keep_events = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (!output)
		usage_die("where to? give the merged file with -o OUT");
	if (optind >= argc)
		usage_die("nothing to merge; give the data files to merge");

	if (keep_events)
		return merge_events(argv + optind, (size_t)(argc - optind), output, force);
	return merge_sums(argv + optind, (size_t)(argc - optind), output, force);

}
