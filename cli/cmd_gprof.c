/*
 * callscope gprof [gprof's options] [PROG] [gmon.out ...]: a drop-in for
 * GNU gprof on gmon.out files.  With -b the flat profile, call graph and
 * index are byte for byte what GNU gprof 2.40 prints for the same binary
 * and files; without -b the explanations are our own.  --compat=strict
 * also reproduces gprof's documented bugs (docs/gprof.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "die.h"
#include "formats/gmon.h"
#include "formats/gcov_read.h"
#include "gprof/gprof.h"
#include "symbols/demangle.h"
#include "xalloc.h"

enum style {
	STYLE_FLAT = 1 << 0,
	STYLE_GRAPH = 1 << 1,
	STYLE_EXEC = 1 << 2,
	STYLE_ANNO = 1 << 3,
	STYLE_SUM = 1 << 4,
	STYLE_INFO = 1 << 5,
};

enum spec_kind {
	SPEC_TABLE,	/* into one of enum gprof_table */
	SPEC_INCL_ARCS,
	SPEC_EXCL_ARCS,
};

struct spec {
	const char *text;
	enum spec_kind kind;
	enum gprof_table table;
};

struct specs {
	struct spec *s;
	size_t n, alloc;
};

static void add_spec(struct specs *l, const char *text, enum spec_kind kind, enum gprof_table t)
{
	ALLOC_GROW(l->s, l->n + 1, l->alloc);
	l->s[l->n++] = (struct spec){ text, kind, t };
}

/* Functions gprof leaves out of time propagation and the graph by default. */
static const char *const default_excluded[] = {
	"_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
	"__mcleanup", "<locore>", "<hicore>", NULL
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: callscope gprof [options] [PROG] [gmon.out ...]\n"
		"\n"
		"Reads PROG (default a.out) and one or more gmon.out files (default\n"
		"gmon.out; several are summed) and prints what GNU gprof prints.\n"
		"\n"
		"  -b, --brief              no explanations\n"
		"  -p[SPEC], -P[SPEC]       flat profile (of SPEC) / none (or not of SPEC)\n"
		"  -q[SPEC], -Q[SPEC]       call graph (of SPEC or FROM/TO arcs) / none\n"
		"  -A[SPEC], -J[SPEC]       annotated source / none\n"
		"  -C[SPEC], -Z[SPEC]       execution counts / none\n"
		"  -n SPEC, -N SPEC         propagate time only from / not from SPEC\n"
		"  -k FROM/TO               leave out the arcs FROM -> TO\n"
		"  -z                       show functions never called and never sampled\n"
		"  -a                       leave out static functions\n"
		"  -l                       line by line\n"
		"  -L                       print full source paths\n"
		"  -s                       write the sum of the files to gmon.sum\n"
		"  -i                       what each file holds\n"
		"  -m N                     -A: counts below N shown as #####\n"
		"  -t N                     -A: length of the top list\n"
		"  -T                       BSD layout\n"
		"  -c                       also the calls in the code that never ran (count 0)\n"
		"  --demangle[=STYLE]       C++ names demangled (the default) / --no-demangle\n"
		"  -w N                     output width (index)\n"
		"  -x, -y                   -A: annotate every line / one file per source\n"
		"  -I DIRS                  -A: where to look for sources (colon-separated)\n"
		"  -O a|m|b|4               gmon.out layout: auto, GNU, old BSD, 4.4BSD\n"
		"  --compat=strict          also reproduce gprof's documented bugs, and\n"
		"                           -A in gprof's own layout\n"
		"\n"
		"SPEC is FILE, FUNCTION, LINE, FILE:FUNCTION or FILE:LINE, as gprof's.\n");
}

static void build_filters(struct gprof_symtab *st, const struct specs *specs,
			  struct gprof_filters *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < specs->n; i++) {
		const struct spec *s = &specs->s[i];
		if (s->kind == SPEC_TABLE) {
			gprof_spec_match(st, s->text, &f->t[s->table]);
			continue;
		}
		struct gprof_arcspecs *as = s->kind == SPEC_INCL_ARCS ? &f->incl_arcs : &f->excl_arcs;
		ALLOC_GROW(as->a, as->n + 1, as->alloc);
		struct gprof_arcspec *a = &as->a[as->n++];
		memset(a, 0, sizeof(*a));
		char *copy = xstrdup(s->text);
		char *slash = strchr(copy, '/');
		if (slash)
			*slash = '\0';
		gprof_spec_match(st, copy, &a->from);
		if (slash)
			gprof_spec_match(st, slash + 1, &a->to);
		free(copy);
	}
}

static void filters_release(struct gprof_filters *f)
{
	for (int i = 0; i < GT_NTABLES; i++)
		gprof_ranges_release(&f->t[i]);
	gprof_arcspecs_release(&f->incl_arcs);
	gprof_arcspecs_release(&f->excl_arcs);
}

static void print_file_info(const struct gmon *g)
{
	for (size_t i = 0; i < g->nfiles; i++) {
		const struct gmon_file_info *fi = &g->files[i];
		printf("File `%s' (version %u) contains:\n", fi->path, fi->version);
		printf(fi->hist_records == 1 ? "\t%zu histogram record\n"
					     : "\t%zu histogram records\n", fi->hist_records);
		printf(fi->arc_records == 1 ? "\t%zu call-graph record\n"
					    : "\t%zu call-graph records\n", fi->arc_records);
		printf(fi->bb_records == 1 ? "\t%zu basic-block count record\n"
					   : "\t%zu basic-block count records\n", fi->bb_records);
	}
}

int cmd_gprof(int argc, char **argv)
{
	enum { OPT_COMPAT = 256, OPT_HELP, OPT_DEMANGLE, OPT_NO_DEMANGLE };
	static const struct option longopts[] = {
		{ "line", no_argument, NULL, 'l' },
		{ "no-static", no_argument, NULL, 'a' },
		{ "ignore-non-functions", no_argument, NULL, 'D' },
		{ "annotated-source", optional_argument, NULL, 'A' },
		{ "no-annotated-source", optional_argument, NULL, 'J' },
		{ "flat-profile", optional_argument, NULL, 'p' },
		{ "no-flat-profile", optional_argument, NULL, 'P' },
		{ "graph", optional_argument, NULL, 'q' },
		{ "no-graph", optional_argument, NULL, 'Q' },
		{ "exec-counts", optional_argument, NULL, 'C' },
		{ "no-exec-counts", optional_argument, NULL, 'Z' },
		{ "file-info", no_argument, NULL, 'i' },
		{ "sum", no_argument, NULL, 's' },
		{ "all-lines", no_argument, NULL, 'x' },
		{ "directory-path", required_argument, NULL, 'I' },
		{ "display-unused-functions", no_argument, NULL, 'z' },
		{ "min-count", required_argument, NULL, 'm' },
		{ "print-path", no_argument, NULL, 'L' },
		{ "separate-files", no_argument, NULL, 'y' },
		{ "table-length", required_argument, NULL, 't' },
		{ "time", required_argument, NULL, 'n' },
		{ "no-time", required_argument, NULL, 'N' },
		{ "width", required_argument, NULL, 'w' },
		{ "brief", no_argument, NULL, 'b' },
		{ "file-format", required_argument, NULL, 'O' },
		{ "traditional", no_argument, NULL, 'T' },
		{ "static-call-graph", no_argument, NULL, 'c' },
		{ "demangle", optional_argument, NULL, OPT_DEMANGLE },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "compat", required_argument, NULL, OPT_COMPAT },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct gprof_opts o = { .ignore_zeros = 1, .output_width = 80, .table_length = 10,
				.min_count = 1 };
	struct specs specs = { 0 };
	enum gmon_format format = GMON_FORMAT_AUTO;
	int style = 0, user_specified = 0;
	char **dirs = NULL;
	size_t ndirs = 0, dirs_alloc = 0;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "aA::bcC::De:E:f:F:iI:J::k:lLm:n:N:O:p::P::q::Q::st:Tw:xyzZ::",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'a': o.ignore_static = 1; break;
		case 'A':
			if (optarg)
				add_spec(&specs, optarg, SPEC_TABLE, GT_INCL_ANNO);
			style |= STYLE_ANNO;
			user_specified |= STYLE_ANNO;
			break;
		case 'b': o.brief = 1; break;
		case 'c': o.static_calls = 1; break;
		case 'C':
			if (optarg)
				add_spec(&specs, optarg, SPEC_TABLE, GT_INCL_EXEC);
			style |= STYLE_EXEC;
			user_specified |= STYLE_EXEC;
			break;
		case 'D': o.ignore_non_functions = 1; break;
		case 'E': add_spec(&specs, optarg, SPEC_TABLE, GT_EXCL_TIME); /* fall through */
		case 'e': add_spec(&specs, optarg, SPEC_TABLE, GT_EXCL_GRAPH); break;
		case 'F': add_spec(&specs, optarg, SPEC_TABLE, GT_INCL_TIME); /* fall through */
		case 'f': add_spec(&specs, optarg, SPEC_TABLE, GT_INCL_GRAPH); break;
		case 'i':
			style |= STYLE_INFO;
			user_specified |= STYLE_INFO;
			break;
		case 'I': {
			char *copy = xstrdup(optarg), *save;
			for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
				ALLOC_GROW(dirs, ndirs + 1, dirs_alloc);
				dirs[ndirs++] = xstrdup(d);
			}
			free(copy);
			break;
		}
		case 'J':
			if (optarg) {
				add_spec(&specs, optarg, SPEC_TABLE, GT_EXCL_ANNO);
				style |= STYLE_ANNO;
			} else {
				style &= ~STYLE_ANNO;
			}
			user_specified |= STYLE_ANNO;
			break;
		case 'k': add_spec(&specs, optarg, SPEC_EXCL_ARCS, 0); break;
		case 'l': o.line_granularity = 1; break;
		case 'L': o.print_path = 1; break;
		case 'm': o.min_count = strtoul(optarg, NULL, 10); break;
		case 'n': add_spec(&specs, optarg, SPEC_TABLE, GT_INCL_TIME); break;
		case 'N': add_spec(&specs, optarg, SPEC_TABLE, GT_EXCL_TIME); break;
		case 'O':
			switch (optarg[0]) {
			case 'a': format = GMON_FORMAT_AUTO; break;
			case 'm': format = GMON_FORMAT_GNU; break;
			case 'b': format = GMON_FORMAT_BSD; break;
			case '4': format = GMON_FORMAT_BSD44; break;
			default:
				usage_die("unknown gmon.out layout '%s'; give -O with a (auto), m (GNU), "
					  "b (old BSD) or 4 (4.4BSD)", optarg);
			}
			break;
		case 'p':
			if (optarg)
				add_spec(&specs, optarg, SPEC_TABLE, GT_INCL_FLAT);
			style |= STYLE_FLAT;
			user_specified |= STYLE_FLAT;
			break;
		case 'P':
			if (optarg) {
				add_spec(&specs, optarg, SPEC_TABLE, GT_EXCL_FLAT);
				style |= STYLE_FLAT;
			} else {
				style &= ~STYLE_FLAT;
			}
			user_specified |= STYLE_FLAT;
			break;
		case 'q':
			if (optarg) {
				if (strchr(optarg, '/'))
					add_spec(&specs, optarg, SPEC_INCL_ARCS, 0);
				else
					add_spec(&specs, optarg, SPEC_TABLE, GT_INCL_GRAPH);
			}
			style |= STYLE_GRAPH;
			user_specified |= STYLE_GRAPH;
			break;
		case 'Q':
			if (optarg) {
				if (strchr(optarg, '/'))
					add_spec(&specs, optarg, SPEC_EXCL_ARCS, 0);
				else
					add_spec(&specs, optarg, SPEC_TABLE, GT_EXCL_GRAPH);
				style |= STYLE_GRAPH;
			} else {
				style &= ~STYLE_GRAPH;
			}
			user_specified |= STYLE_GRAPH;
			break;
		case 's':
			style |= STYLE_SUM;
			user_specified |= STYLE_SUM;
			break;
		case 't':
			o.table_length = atoi(optarg);
			if (o.table_length < 0)
				o.table_length = 0;
			break;
		case 'T': o.bsd_style = 1; break;
		case 'w':
			o.output_width = atoi(optarg);
			if (o.output_width < 1)
				o.output_width = 1;
			break;
		case 'x': o.annotate_all_lines = 1; break;
		case 'y': o.separate_files = 1; break;
		case 'z': o.ignore_zeros = 0; break;
		case 'Z':
			if (optarg) {
				add_spec(&specs, optarg, SPEC_TABLE, GT_EXCL_EXEC);
				style |= STYLE_EXEC;
			} else {
				style &= ~STYLE_EXEC;
			}
			user_specified |= STYLE_ANNO;
			break;
		case OPT_DEMANGLE:
			if (!optarg)
				demangle_set_enabled(1);
			else if (demangle_set_style(optarg))
				usage_die("unknown demangling style '%s'; give auto, gnu-v3, java, "
					  "gnat, dlang or rust", optarg);
			break;
		case OPT_NO_DEMANGLE:
			demangle_set_enabled(0);
			break;
		case OPT_COMPAT:
			if (!strcmp(optarg, "strict"))
				o.strict = 1;
			else if (!strcmp(optarg, "fixed"))
				o.strict = 0;
			else
				usage_die("unknown --compat mode '%s'; give strict or fixed", optarg);
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		default:
			usage_die("unknown or incomplete option '%s'; see 'callscope gprof --help'",
				  argv[optind - 1]);
		}
	}
	o.search_dirs = dirs;
	o.nsearch_dirs = ndirs;
	if (style & STYLE_SUM)
		o.line_granularity = 1;	/* as gprof: -s implies -l */

	const char *prog = optind < argc ? argv[optind++] : "a.out";
	const char *default_gmon = "gmon.out";
	const char *const *gmons = optind < argc ? (const char *const *)argv + optind : &default_gmon;
	size_t ngmons = optind < argc ? (size_t)(argc - optind) : 1;

	for (const char *const *sp = default_excluded; *sp; sp++) {
		add_spec(&specs, *sp, SPEC_TABLE, GT_EXCL_TIME);
		add_spec(&specs, *sp, SPEC_TABLE, GT_EXCL_GRAPH);
		if (o.line_granularity)
			add_spec(&specs, *sp, SPEC_TABLE, GT_EXCL_FLAT);
	}

	struct gprof_symtab st;
	if (gprof_symtab_load(&st, prog, &o) < 0) {
		gprof_symtab_release(&st);
		return EXIT_FATAL;
	}
	struct gmon g;
	gmon_init(&g, &st.layout);
	for (size_t i = 0; i < ngmons; i++)
		if (gmon_load(&g, gmons[i], format) < 0)
			return EXIT_FATAL;
	if (o.line_granularity)
		gprof_make_line_syms(&st, &g);
	else if (g.has_bbs)
		warning("the basic-block counts in the profile are left out; add -l to see them "
			"with -C");

	struct gprof_filters f;
	build_filters(&st, &specs, &f);

	int first = 1;
	if (style & STYLE_INFO) {
		print_file_info(&g);
		first = 0;
	}
	if (style == 0) {
		/* as gprof: what was not asked for explicitly, guessed from the data */
		if (g.has_hist || g.has_arcs)
			style = (g.has_hist ? STYLE_FLAT : 0) | (g.has_arcs ? STYLE_GRAPH : 0);
		else
			style = STYLE_EXEC;
		style &= ~user_specified;
	}

	struct gprof_result res = { 0 };
	res.hz = g.rate ? g.rate : 100;
	if (g.nhists) {
		memcpy(res.dimen, g.hists[0].dimen, sizeof(res.dimen));
		res.abbrev = g.hists[0].abbrev;
	} else {
		snprintf(res.dimen, sizeof(res.dimen), "seconds");
		res.abbrev = 's';
	}
	gprof_tally(&st, &g, &f, &o, &res);
	if ((style & STYLE_SUM) && gprof_write_sum("gmon.sum", &g, &st, &res, o.strict) < 0)
		return EXIT_FATAL;
	if (g.has_hist)
		gprof_assign_samples(&st, &g, &f, &res);
	if (g.has_arcs && o.static_calls)
		gprof_static_calls(&st, &g, o.strict, &res);
	if (g.has_arcs)
		gprof_assemble(&st, &f, &res);

	if ((style & STYLE_FLAT) && !g.has_hist)
		die("'%s' holds no histogram, so there is no flat profile; add -P to leave it out",
		    gmons[0]);
	if ((style & STYLE_GRAPH) && !g.has_arcs)
		die("'%s' holds no call-graph records (was the program built with -pg?); add -Q "
		    "to leave the call graph out", gmons[0]);

	if (g.has_arcs && (style & STYLE_GRAPH) && o.bsd_style)
		gprof_print_graph(stdout, &st, &o, &res, &first);
	if (style & STYLE_FLAT)
		gprof_print_flat(stdout, &st, &f, &o, &res, &first);
	if (g.has_arcs && (style & STYLE_GRAPH)) {
		if (!o.bsd_style)
			gprof_print_graph(stdout, &st, &o, &res, &first);
		gprof_print_index(stdout, &st, &o, &res);
	}
	if (style & STYLE_EXEC)
		gprof_print_exec_counts(stdout, &st, &g, &f, &o, &first);
	int rc = 0;
	struct gcov_data counts;
	memset(&counts, 0, sizeof(counts));
	if ((style & STYLE_ANNO) && o.line_granularity && o.annotate_all_lines && !o.strict &&
	    gcov_program_has_counts(prog)) {
		/* stale or missing counts are said and never shown as zeros */
		if (gcov_read_program(prog, &counts) != 0)
			return EXIT_FATAL;
		o.line_counts = &counts;
	}
	if (style & STYLE_ANNO)
		rc = gprof_print_annotated(stdout, &st, &g, &f, &o, &res, &first) < 0 ? EXIT_FATAL
											: 0;
	gcov_data_release(&counts);

	gprof_result_release(&res);
	filters_release(&f);
	gmon_release(&g);
	gprof_symtab_release(&st);
	for (size_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	free(specs.s);
	return rc;
}
