/*
 * callscope graph [-i PATH] [--json] [--brief] [--static] [--pid=PID] [--tid=TID]
 *
 * The call graph in gprof's layout, with exact times.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/recording_arg.h"
#include "cli/demangle_option.h"
#include "load/load.h"
#include "load/static_calls.h"
#include "die.h"
#include "report/graph.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope graph [-i PATH | PATH] [--json] [--brief] [--static] [--pid=PID] [--tid=TID]\n"
	"\n"
	"  -i, --input PATH  recording to read, or PATH alone (default: callscope.data)\n"
	"      --json        machine-readable output (see docs/graph.md)\n"
	"  -b, --brief       leave out the index by function name\n"
	"      --static      also the direct calls in the code that never ran (count 0)\n"
	"      --pid PID     only this process\n"
	"      --tid TID     only this thread\n"
	"      --signal-filter F  signal handlers: separate (default), exclude or none\n"
	NO_DEMANGLE_HELP;

int cmd_graph(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "brief", no_argument, NULL, 'b' },
		{ "static", no_argument, NULL, 'S' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "signal-filter", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	struct graph_options go = { 0, 0 };
	struct load_filter filter = { -1, -1 };
	int opt, with_static = 0;

	while ((opt = getopt_long(argc, argv, "i:bh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 'j': go.json = 1; break;
		case 'b': go.brief = 1; break;
		case 'S': with_static = 1; break;
		case 'p': filter.pid = load_parse_id("--pid", optarg); break;
		case 't': filter.tid = load_parse_id("--tid", optarg); break;
		case 'G': filter.signals = load_parse_signal_filter(optarg); break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	input = recording_arg("graph", input, argc, argv, optind);

	if (load_path_is_prf(input)) {
		int salvaged = 0;
		if (filter.pid >= 0 || filter.tid >= 0)
			usage_die("'%s' is a .prf file: --pid and --tid do not apply", input);
		struct profile *p = load_profile_path(input, &salvaged);
		profile_find_cycles(p);
		if (with_static)
			static_calls_add(p, NULL, 0);
		report_graph(stdout, p, &go);
		profile_free(p);
		return salvaged ? EXIT_SALVAGED : 0;
	}
	struct data_file df;
	if (data_file_load(input, &df) != 0)
		return EXIT_FATAL;
	struct load_stats stats;
	struct profile *p = load_profile(&df, &filter, &stats);
	if (!p->nthreads && (filter.pid >= 0 || filter.tid >= 0))
		die("no thread in '%s' matches the --pid/--tid given; see 'callscope info'", input);
	if (with_static) {
		char **exes = xcalloc(df.nprocesses + 1, sizeof(*exes));
		for (size_t i = 0; i < df.nprocesses; i++)
			exes[i] = df.processes[i].exe;
		static_calls_add(p, exes, df.nprocesses);
		free(exes);
	}
	report_graph(stdout, p, &go);
	profile_free(p);
	data_file_release(&df);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
