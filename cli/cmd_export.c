/*
 * callscope export [-i PATH] --format=FMT [-o OUT] [--value=KIND] [--pid=PID] [--tid=TID]
 *
 * Writes a recording in a format other tools read: gmon (GNU gprof),
 * callgrind (KCachegrind, callgrind_annotate), pprof, chrome (Perfetto),
 * folded (flame graphs), prf (CodeScape).  docs/export.md says what each
 * one holds.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/recording_arg.h"
#include "cli/demangle_option.h"
#include "cli/export_load.h"
#include "outfile.h"
#include "die.h"
#include "formats/export.h"
#include "formats/prf.h"

static const char usage_text[] =
	"usage: callscope export [-i PATH | PATH] --format=FMT [-o OUT] [--value=KIND]\n"
	"                        [--pid=PID] [--tid=TID]\n"
	"\n"
	"  -i, --input PATH   recording to read, or PATH alone (default: callscope.data)\n"
	"  -f, --format FMT   gmon, callgrind, pprof, chrome, folded or prf\n"
	"  -o, --output OUT   file to write; '-' is stdout (default: per format,\n"
	"                     see docs/export.md; folded goes to stdout)\n"
	"      --value KIND   folded: self (self time in ns, default) or calls\n"
	"      --pid PID      only this process\n"
	"      --tid TID      only this thread\n"
	NO_DEMANGLE_HELP;

enum format { GMON, CALLGRIND, PPROF, CHROME, FOLDED, PRF };

static const struct {
	const char *name;
	const char *default_output;
	int binary;		/* never to a terminal */
	int tree;		/* needs the calling-context tree */
} formats[] = {
	[GMON] = { "gmon", "gmon.out", 1, 0 },
	[CALLGRIND] = { "callgrind", "callgrind.out", 0, 0 },
	[PPROF] = { "pprof", "profile.pb.gz", 1, EXPORT_THREAD_TREES },
	[CHROME] = { "chrome", "trace.json", 0, 0 },
	[FOLDED] = { "folded", "-", 0, 1 },
	[PRF] = { "prf", "callscope.prf", 1, 1 },
};

static enum format parse_format(const char *s)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(s, formats[i].name))
			return (enum format)i;
	usage_die("unknown export format '%s'; use gmon, callgrind, pprof, chrome, folded or prf",
		  s);
}

static int write_format(enum format fmt, FILE *out, struct export_data *d,
			enum folded_value value)
{
	struct prf_file prf;
	int rc;

	switch (fmt) {
	case GMON: return gmon_write(out, d->p, &d->meta);
	case CALLGRIND: return callgrind_write(out, d->p, &d->meta);
	case PPROF: return pprof_write(out, d->p, d->tree, &d->meta);
	case CHROME: return d->chrome_failed ? -1 : 0;
	case FOLDED: return folded_write(out, d->p, d->tree, value);
	case PRF:
		prf_from_profile(d->p, d->tree, d->meta.unix_start_ns, &prf);
		rc = prf_write(out, &prf);
		prf_file_release(&prf);
		return rc;
	}
	return -1;
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "value", required_argument, NULL, 'v' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL, *output = NULL;
	struct load_filter filter = { -1, -1 };
	enum folded_value value = FOLDED_SELF_NS;
	int fmt = -1, opt;

	while ((opt = getopt_long(argc, argv, "i:o:f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 'o': output = optarg; break;
		case 'f': fmt = (int)parse_format(optarg); break;
		case 'v':
			if (!strcmp(optarg, "self"))
				value = FOLDED_SELF_NS;
			else if (!strcmp(optarg, "calls"))
				value = FOLDED_CALLS;
			else
				usage_die("--value wants self or calls, not '%s'", optarg);
			break;
		case 'p': filter.pid = load_parse_id("--pid", optarg); break;
		case 't': filter.tid = load_parse_id("--tid", optarg); break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	input = recording_arg("export", input, argc, argv, optind);
	if (fmt < 0)
		usage_die("which format? give --format=gmon, callgrind, pprof, chrome, folded or prf");
	if (!output)
		output = formats[fmt].default_output;
	if (!strcmp(output, "-") && formats[fmt].binary && isatty(fileno(stdout)))
		usage_die("%s is a binary format; give a file with -o", formats[fmt].name);

	struct data_file df;
	if (data_file_load(input, &df) != 0)
		return EXIT_FATAL;
	int any = 0;
	for (size_t i = 0; i < df.nthreads; i++)
		any |= (filter.pid < 0 || df.threads[i].pid == filter.pid) &&
		       (filter.tid < 0 || df.threads[i].tid == filter.tid);
	if (!any && (filter.pid >= 0 || filter.tid >= 0))
		die("no thread in '%s' matches the --pid/--tid given; see 'callscope info'", input);

	struct outfile out;
	struct export_data d;
	if (outfile_open(&out, output, OUTFILE_DASH_IS_STDOUT) != 0)
		exit(EXIT_FATAL);
	export_data_load(&df, &filter, formats[fmt].tree, fmt == CHROME ? out.f : NULL, &d);
	if (d.meta.samples_only && fmt == FOLDED && value == FOLDED_CALLS) {
		outfile_abort(&out);
		die("'%s' holds timer samples, not traced calls, so there are no call counts; "
		    "give --value=self for the samples of each stack", input);
	}
	if (fmt == CHROME && !d.call_events && (d.meta.samples_only || d.p->calls)) {
		outfile_abort(&out);
		die("'%s' holds %s, not calls one by one, so there is no call event to write; "
		    "export it as pprof, folded, callgrind, gmon or prf", input,
		    d.meta.samples_only ? "timer samples" : "call paths summed by --mode=count");
	}
	if (fmt == CALLGRIND || fmt == PPROF)
		export_data_lines(&d, &df);
	if (fmt == GMON)
		export_data_call_sites(&d);
	int rc = write_format((enum format)fmt, out.f, &d, value);
	int salvaged = d.stats.salvaged;
	export_data_release(&d);
	data_file_release(&df);
	if (rc != 0) {
		outfile_fail(&out, errno);
		return EXIT_FATAL;
	}
	if (outfile_commit(&out) != 0)
		return EXIT_FATAL;
	return salvaged ? EXIT_SALVAGED : 0;
}
