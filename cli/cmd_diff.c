/*
 * callscope diff [--json] [--threshold PCT] A B
 *
 * Per-function change from recording A to recording B in self time,
 * total time and calls, largest change in self time first.  A and B are
 * callscope data files or CodeScape .prf files.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/demangle_option.h"
#include "cli/threshold_arg.h"
#include "load/load.h"
#include "die.h"
#include "model/samples.h"
#include "report/diff.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope diff [--json] [--threshold PCT] A B\n"
	"\n"
	"  A, B               recordings (callscope data or .prf): A is the baseline\n"
	"      --json         machine-readable output (see docs/diff.md)\n"
	"  -t, --threshold PCT  hide functions whose self and total time changed by\n"
	"                     less than PCT % of A's time\n"
	NO_DEMANGLE_HELP;

int cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "threshold", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	struct diff_options o = { NULL, NULL, 0, 0 };
	int opt;

	while ((opt = getopt_long(argc, argv, "t:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': o.json = 1; break;
		case 't': o.threshold_pct = threshold_arg(optarg); break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		usage_die("diff wants two recordings, A and B; see 'callscope diff --help'");
	o.name_a = argv[optind];
	o.name_b = argv[optind + 1];

	int salvaged = 0;
	struct profile *a = load_profile_path(o.name_a, &salvaged);
	struct profile *b = load_profile_path(o.name_b, &salvaged);
	struct diff d;
	if (diff_build(a, b, &d) != 0)
		die("'%s' holds %s and '%s' %s: they have no unit in common; compare two "
		    "sampled or two traced recordings", o.name_a,
		    profile_samples_only(a) ? "timer samples" : "traced calls", o.name_b,
		    profile_samples_only(b) ? "timer samples" : "traced calls");
	report_diff(stdout, &d, &o);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	return salvaged ? EXIT_SALVAGED : 0;
}
