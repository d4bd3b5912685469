/*
 * callscope merge -o OUT [--force] A.data B.data ...
 *
 * Sums runs of one program: OUT holds every input's processes and
 * threads, so each report of OUT shows the sums.  Runs of different
 * programs are refused (the main executable's build ID tells) unless
 * --force.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/export_load.h"
#include "cli/outfile.h"
#include "die.h"
#include "formats/native_merge.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope merge -o OUT [--force] A.data B.data ...\n"
	"\n"
	"  -o, --output OUT  data file to write (required)\n"
	"      --force       merge runs of different programs too\n";

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

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	int force = 0, opt;

	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': output = optarg; break;
		case 'F': force = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (!output)
		usage_die("where to? give the merged file with -o OUT");
	if (optind >= argc)
		usage_die("nothing to merge; give the data files to merge");

	size_t n = (size_t)(argc - optind);
	struct data_file *in = xcalloc(n, sizeof(*in));
	for (size_t k = 0; k < n; k++)
		if (data_file_load(argv[optind + k], &in[k]) != 0)
			exit(EXIT_FATAL);

	const struct data_object *first = export_main_object(&in[0]);
	for (size_t k = 1; k < n && !force; k++) {
		const struct data_object *o = export_main_object(&in[k]);
		if (same_program(first, o))
			continue;
		char *da = describe(first), *db = describe(o);
		die("'%s' is a run of another program (%s) than '%s' (%s); merge runs of one "
		    "program, or give --force", argv[optind + k], db, argv[optind], da);
	}

	struct outfile out;
	struct data_merge_result res;
	char err[256];
	outfile_open(&out, output);
	if (data_merge(out.f, in, n, &res, err, sizeof(err)) != 0) {
		outfile_abort(&out);
		die("cannot merge into '%s': %s", output, err);
	}
	if (outfile_commit(&out) != 0)
		exit(EXIT_FATAL);
	if (res.worst_rate_ratio > 1.01)
		warning("'%s' was recorded with a clock rate %.1f%% away from that of '%s': its "
			"times are off by as much in '%s'",
			argv[optind + res.worst_input], (res.worst_rate_ratio - 1) * 100,
			argv[optind], output);
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
