/*
 * callscope optimize [-i DATA] [-o PREFIX] [--cache-size=SIZE] [--algorithm=NAME]
 *                    [--binary=PATH] [--map=FILE | --objects FILE...]
 * callscope optimize --measure OLD_BIN NEW_BIN [BIN...] [--cache=S,W,L]...
 *                    [--relink=CMD] [--offsets=LIST] [--stdin=FILE] [--json] -- ARGS
 *
 * The first form turns a recording's call graph into a link order that
 * keeps code which runs together inside one instruction-cache-sized
 * clique, and writes it for the linkers; the second measures what a new
 * order gained.  See docs/optimize.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/recording_arg.h"
#include "load/load.h"
#include "die.h"
#include "optimize/cache_spec.h"
#include "symbols/elf_funcs.h"
#include "optimize/graph_build.h"
#include "optimize/measure.h"
#include "optimize/optimize.h"
#include "optimize/sections.h"
#include "model/samples.h"
#include "optimize/warnings.h"
#include "optimize/writers.h"
#include "xalloc.h"

/* The usage, with the algorithms filled in from their table. */
static const char usage_format[] =
	"usage: callscope optimize [-i DATA | DATA] [-o PREFIX] [--cache-size=SIZE] [--algorithm=NAME]\n"
	"                          [--binary=PATH] [--map=FILE | --objects FILE...] [--pid=PID]\n"
	"   or: callscope optimize --measure OLD_BIN NEW_BIN [BIN...] [--cache=SIZE,WAYS,LINE]...\n"
	"                          [--relink=CMD] [--offsets=LIST] [--stdin=FILE] [--json] -- ARGS\n"
	"\n"
	"  -i, --input DATA      recording to read, or DATA alone (default: callscope.data)\n"
	"  -o, --output PREFIX   write PREFIX.lor, .order, .cg, .gold-order, .ld\n"
	"                        (default: the binary's name)\n"
	"      --cache-size SIZE largest clique, e.g. 32K (default: this machine's L1i)\n"
	"      --algorithm NAME  %s\n"
	"      --weight WHAT     what makes a function hot: calls (default), time,\n"
	"                        samples or mixed (see docs/optimize.md)\n"
	"      --binary PATH     the binary to lay out (default: the recorded program);\n"
	"                        names and sizes come from its symbol table\n"
	"      --map FILE        the binary's linker map (-Wl,-Map=FILE): input sections\n"
	"      --objects         the arguments are the objects and archives it was linked from\n"
	"      --pid PID         only this process of the recording\n"
	"\n"
	"  --measure             compare the binaries (the first is the baseline)\n"
	"      --cache S,W,L     simulate this I1 cache, even where the hardware event\n"
	"                        works (repeatable; default 8K,2,32 and this machine's L1i)\n"
	"      --relink CMD      shell command that relinks a binary with padding before its\n"
	"                        code (see docs/optimize.md); measures each offset\n"
	"      --offsets LIST    padding bytes for --relink (default 0,1040,2080,3120)\n"
	"      --stdin FILE      the program's standard input (default: /dev/null)\n"
	"      --simulate        use cachegrind even where the hardware event works\n"
	"      --repeat N        hardware runs per binary and offset (default 5)\n"
	"  -j, --jobs N          runs at once (default: the number of CPUs)\n"
	"      --json            machine-readable measurement\n";

static void usage(FILE *out)
{
	char list[200];
	fprintf(out, usage_format, opt_algorithm_list(list, sizeof(list)));
}

enum {
	OPT_CACHE_SIZE = 256, OPT_ALGORITHM, OPT_WEIGHT, OPT_BINARY, OPT_MAP, OPT_OBJECTS, OPT_PID,
	OPT_MEASURE, OPT_CACHE, OPT_RELINK, OPT_OFFSETS, OPT_STDIN, OPT_SIMULATE, OPT_REPEAT,
	OPT_JSON,
};

struct optimize_args {
	const char *input, *prefix, *binary, *map, *algorithm;
	uint64_t cache_size;
	enum opt_weight weight;
	int objects;
	int64_t pid;
	char **positional;
	size_t npositional;
};

/* PATH's last component, the file's name. */
static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Basename of PATH without directories, as a default output prefix. */
static char *default_prefix(const char *path)
{
	return xstrdup(file_name(path));
}

/* The recorded program: the executable of the first process (or of --pid). */
static const char *recorded_program(const struct data_file *df, int64_t pid)
{
	for (size_t i = 0; i < df->nprocesses; i++)
		if (pid < 0 || df->processes[i].pid == (uint32_t)pid)
			return df->processes[i].exe;
	return NULL;
}

/*
 * The recorded object BINARY lays out: the program, else a shared library
 * of the recording that BINARY is, or is another build of (the same file
 * name: liblzma.so.5), so that a library's functions can be ordered too.
 */
static const char *laid_out_object(const struct data_file *df, const char *program,
				   const char *binary)
{
	if (opt_same_file(binary, program))
		return program;
	for (size_t i = 0; i < df->nobjects; i++)
		if (opt_same_file(binary, df->objects[i].path))
			return df->objects[i].path;
	for (size_t i = 0; i < df->nobjects; i++)
		if (!strcmp(file_name(binary), file_name(df->objects[i].path)))
			return df->objects[i].path;
	return program;
}

/* Prints up to five subjects of one warning kind on one line. */
static void tell_kind(const struct opt_graph *g, const struct opt_warnings *w,
		      enum opt_warning_kind kind, const char *what, const char *lor)
{
	char names[600], buf[512];
	size_t used = 0, shown = 0;

	if (!w->count[kind])
		return;
	names[0] = 0;
	for (size_t i = 0; i < w->n && shown < 5; i++) {
		const struct opt_warning *x = &w->list[i];
		if (x->kind != kind)
			continue;
		int n = snprintf(names + used, sizeof(names) - used, "%s%s (%llu calls)",
				 shown ? ", " : "", opt_warning_subject(g, x, buf, sizeof(buf)),
				 (unsigned long long)x->calls);
		if (n < 0 || (size_t)n >= sizeof(names) - used)
			break;
		used += (size_t)n;
		shown++;
	}
	warning("%zu %s: %s%s; see '%s'", w->count[kind], what, names,
		w->count[kind] > shown ? ", ..." : "", lor);
}

static void tell_warnings(const struct opt_graph *g, const struct opt_warnings *w,
			  const struct opt_params *p, const char *lor)
{
	char buf[512];

	for (size_t i = 0; i < w->n; i++) {
		const struct opt_warning *x = &w->list[i];
		if (x->kind == OPT_W_FUNC_TOO_BIG)
			warning("'%s' alone is larger than the cache (%llu bytes > %llu, %llu calls); "
				"no function order helps inside it, only its block layout can "
				"(a profile-guided compiler, or BOLT)",
				g->funcs[x->index].name, (unsigned long long)x->size,
				(unsigned long long)p->cache_size, (unsigned long long)x->calls);
		else if (x->kind == OPT_W_GROUP_TOO_BIG)
			warning("the fixed group %s is larger than the cache (%llu bytes > %llu, %llu "
				"calls); compile its file with -ffunction-sections",
				opt_warning_subject(g, x, buf, sizeof(buf)), (unsigned long long)x->size,
				(unsigned long long)p->cache_size, (unsigned long long)x->calls);
	}
	tell_kind(g, w, OPT_W_NO_SIZE, "hot functions have no size in the symbol table "
		  "(placed, not counted against the cache)", lor);
	tell_kind(g, w, OPT_W_STALE, "functions of the profile are not in the binary "
		  "(inlined away by its build, as -flto does, or the profile is stale; left out)",
		  lor);
	tell_kind(g, w, OPT_W_SHARED, "functions are in shared libraries or other programs "
		  "(this link order cannot move them)", lor);
	if (w->count[OPT_W_UNCALLED])
		fprintf(stderr, "callscope: %zu functions (%llu bytes) were not called during the "
			"profile; they follow the hot code\n", w->count[OPT_W_UNCALLED],
			(unsigned long long)w->bytes[OPT_W_UNCALLED]);
}

/*
 * A sampled recording has no calls: its call graph comes from the stacks.
 * Each sample adds its weight to every caller -> callee pair of its stack
 * (the stack is innermost first), so an arc weighs the samples taken while
 * the callee ran under that caller: the time the pair spends together.
 */
struct stack_arcs {
	struct profile *p;
};

static void arcs_sample(void *ctx, const struct replay_sample *s)
{
	struct profile *p = ((struct stack_arcs *)ctx)->p;

	for (size_t i = 0; i + 1 < s->n; i++) {
		if (s->funcs[i] == s->funcs[i + 1])
			continue;
		/* Interning may move the arcs: index them after. */
		uint32_t arc = profile_intern_arc(p, s->funcs[i + 1], s->funcs[i]);
		p->arcs[arc].count += s->weight;
	}
}

static void add_stack_arcs(const struct data_file *df, const struct load_filter *filter,
			   struct profile *p)
{
	struct stack_arcs ctx = { p };
	const struct replay_visitor v = { .ctx = &ctx, .sample = arcs_sample };
	struct load_stats stats;

	memset(&stats, 0, sizeof(stats));
	load_replay(df, filter, p, &v, &stats);
}

static int run_optimize(const struct optimize_args *a)
{
	const struct opt_algorithm *alg = opt_algorithm_find(a->algorithm);
	struct opt_params params = { a->cache_size };
	struct load_filter filter = { a->pid, -1 };
	struct data_file df;
	int status = 0;

	if (!alg) {
		char list[200];
		usage_die("unknown algorithm '%s'; use %s", a->algorithm,
			  opt_algorithm_list(list, sizeof(list)));
	}
	if (a->map && a->objects)
		usage_die("--map and --objects do not go together; give one of them");
	if (a->objects && !a->npositional)
		usage_die("--objects wants the object files and archives as arguments");
	if (!a->objects && a->npositional)
		usage_die("unexpected argument '%s'; see 'callscope optimize --help'",
			  a->positional[0]);
	if (!params.cache_size) {
		struct cache_spec host;
		cache_host_l1i(&host);
		params.cache_size = host.size;
	}

	if (data_file_load(a->input, &df) != 0)
		return EXIT_FATAL;
	const char *program = recorded_program(&df, a->pid);
	if (!program)
		die("no process in '%s'%s; see 'callscope info'", a->input,
		    a->pid >= 0 ? " matches --pid" : "");
	const char *binary = a->binary ? a->binary : program;
	if (access(binary, R_OK) != 0)
		die("cannot read the binary '%s': %s; give the binary to lay out with --binary",
		    binary, strerror(errno));
	program = laid_out_object(&df, program, binary);

	struct load_stats stats;
	struct profile *p = load_profile(&df, &filter, &stats);
	if (!p->nthreads)
		die("no thread in '%s' matches the --pid given; see 'callscope info'", a->input);
	int sampled = profile_samples_only(p);
	if (sampled)
		add_stack_arcs(&df, &filter, p);
	else if (!p->calls)
		die("'%s' holds neither calls nor samples; record a program built with -pg or "
		    "-finstrument-functions, or sample it (record --mode=sample)", a->input);
	if (p->lost_events)
		warning("the recording lost %llu events: call counts are low where they fell",
			(unsigned long long)p->lost_events);

	struct elf_funcs funcs;
	if (elf_funcs_load(binary, &funcs) != 0)
		exit(EXIT_FATAL);

	struct link_map map;
	struct object_sections objects = { 0 };
	char *source = NULL;
	memset(&map, 0, sizeof(map));
	if (a->map) {
		if (link_map_load(a->map, &map) != 0 || link_map_check(&map, &funcs, a->map, binary))
			exit(EXIT_FATAL);
		source = xasprintf("the linker map '%s'", a->map);
	} else if (a->objects) {
		for (size_t i = 0; i < a->npositional; i++)
			if (object_sections_add(&objects, a->positional[i]) != 0)
				exit(EXIT_FATAL);
		source = xasprintf("%zu object files and archives", a->npositional);
	}

	struct opt_build_input in = {
		.profile = p,
		.program = program,
		.binary_path = binary,
		.binary = &funcs,
		.same_file = opt_same_file(binary, program),
		.map = a->map ? &map : NULL,
		.objects = a->objects ? &objects : NULL,
		.weight = a->weight,
	};
	struct opt_graph *g = opt_graph_build(&in);
	struct opt_layout layout = { 0 };
	struct opt_warnings warnings;
	alg->run(g, &params, &layout);
	opt_layout_sink_cold(g, &layout);
	opt_warnings_collect(g, &params, &warnings);

	char *prefix = a->prefix ? xstrdup(a->prefix) : default_prefix(binary);
	char *lor = xasprintf("%s.lor", prefix), *order = xasprintf("%s.order", prefix);
	char *cg = xasprintf("%s.cg", prefix), *gold = xasprintf("%s.gold-order", prefix);
	char *ld = xasprintf("%s.ld", prefix);
	struct opt_output_info info = { binary, a->input, alg->name, alg->summary, source,
					params.cache_size,
					sampled ? "samples" :
					opt_weight_name(a->weight) };
	struct opt_write_stats ws = { 0 };
	int sections = a->map || a->objects;

	if (opt_write_lor(lor, g, &layout, &warnings, &info) ||
	    opt_write_symbol_order(order, g, &layout) || opt_write_call_graph(cg, g) ||
	    (sections && (opt_write_gold_order(gold, g, &layout, &ws) ||
			  opt_write_ld_script(ld, g, &layout, &info))))
		exit(EXIT_FATAL);

	uint64_t hot_bytes = 0;
	size_t hot_funcs = 0, fixed = 0;
	for (size_t i = 0; i < layout.n; i++) {
		hot_bytes += layout.clusters[i].size;
		for (size_t k = 0; k < layout.clusters[i].n; k++) {
			const struct opt_group *gr = &g->groups[layout.clusters[i].groups[k]];
			hot_funcs += gr->nmembers;
			fixed += gr->nmembers > 1;
		}
	}
	tell_warnings(g, &warnings, &params, lor);
	if (!sections)
		fprintf(stderr, "callscope: no --map or --objects: assuming one function per input "
			"section; link once with -Wl,-Map=%s.map and pass --map=%s.map to learn the "
			"fixed groups and get the gold and GNU ld files\n", prefix, prefix);
	if (ws.gold_unnamed)
		warning("%zu hot input sections have names gold cannot tell apart (such as .text); "
			"they are missing from '%s': compile with -ffunction-sections",
			ws.gold_unnamed, gold);
	if (!layout.n)
		warning("no function of '%s' was called in the profile; the order files are empty",
			binary);

	printf("%s: %zu hot functions, %llu bytes, in %zu clique%s of at most %llu bytes (%s)\n",
	       binary, hot_funcs, (unsigned long long)hot_bytes, layout.n, layout.n == 1 ? "" : "s",
	       (unsigned long long)params.cache_size, alg->name);
	if (fixed)
		printf("%zu of the hot input sections hold several functions (fixed groups)\n", fixed);
	printf("wrote %s (the order with its reasons), %s, %s", lor, order, cg);
	if (sections)
		printf(", %s, %s", gold, ld);
	printf("\n\n");
	printf("compile with:      -ffunction-sections\n");
	printf("link with lld:     -fuse-ld=lld -Wl,--symbol-ordering-file=%s\n", order);
	printf("  or let lld sort: -fuse-ld=lld -Wl,--call-graph-ordering-file=%s\n", cg);
	if (sections) {
		printf("link with gold:    -fuse-ld=gold -Wl,--section-ordering-file=%s\n", gold);
		printf("link with GNU ld:  -Wl,-T,%s\n", ld);
	} else {
		printf("gold and GNU ld:   need the input section names: add -Wl,-Map=%s.map to the "
		       "link, then pass --map=%s.map\n", prefix, prefix);
	}

	free(lor);
	free(order);
	free(cg);
	free(gold);
	free(ld);
	free(prefix);
	free(source);
	opt_warnings_release(&warnings);
	opt_layout_free(&layout);
	opt_graph_free(g);
	link_map_release(&map);
	object_sections_release(&objects);
	elf_funcs_release(&funcs);
	profile_free(p);
	data_file_release(&df);
	if (stats.salvaged)
		status = EXIT_SALVAGED;
	return status;
}

static void parse_offsets(const char *s, struct measure_options *m)
{
	char *copy = xstrdup(s), *save = NULL;

	m->noffsets = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (cache_parse_size(t, &v) || v > (1u << 20))
			usage_die("--offsets wants byte counts up to 1M separated by commas, not '%s'", s);
		if (m->noffsets == MEASURE_MAX_OFFSETS)
			usage_die("--offsets takes at most %d offsets", MEASURE_MAX_OFFSETS);
		m->offsets[m->noffsets++] = v;
	}
	free(copy);
	if (!m->noffsets)
		usage_die("--offsets wants at least one offset");
}

int cmd_optimize(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "cache-size", required_argument, NULL, OPT_CACHE_SIZE },
		{ "algorithm", required_argument, NULL, OPT_ALGORITHM },
		{ "weight", required_argument, NULL, OPT_WEIGHT },
		{ "binary", required_argument, NULL, OPT_BINARY },
		{ "map", required_argument, NULL, OPT_MAP },
		{ "objects", no_argument, NULL, OPT_OBJECTS },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "measure", no_argument, NULL, OPT_MEASURE },
		{ "cache", required_argument, NULL, OPT_CACHE },
		{ "relink", required_argument, NULL, OPT_RELINK },
		{ "offsets", required_argument, NULL, OPT_OFFSETS },
		{ "stdin", required_argument, NULL, OPT_STDIN },
		{ "simulate", no_argument, NULL, OPT_SIMULATE },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		{ "jobs", required_argument, NULL, 'j' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct optimize_args a = { NULL, NULL, NULL, NULL, opt_algorithms[0].name,
				   0, OPT_WEIGHT_CALLS, 0, -1, NULL, 0 };
	struct measure_options m;
	int measure = 0, opt, optimize_only = 0, measure_only = 0;
	const char *why;

	memset(&m, 0, sizeof(m));
	m.repeat = 5;

	/* Everything after "--" is the measured program's: getopt must not see it. */
	int nopts = argc;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			nopts = i;
			break;
		}
	while ((opt = getopt_long(nopts, argv, "i:o:j:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': a.input = optarg; optimize_only = 1; break;
		case 'o': a.prefix = optarg; optimize_only = 1; break;
		case OPT_CACHE_SIZE:
			if (cache_parse_size(optarg, &a.cache_size) || !a.cache_size)
				usage_die("--cache-size wants a size such as 32K, not '%s'", optarg);
			optimize_only = 1;
			break;
		case OPT_ALGORITHM: a.algorithm = optarg; optimize_only = 1; break;
		case OPT_WEIGHT:
			if (!strcmp(optarg, "calls"))
				a.weight = OPT_WEIGHT_CALLS;
			else if (!strcmp(optarg, "time"))
				a.weight = OPT_WEIGHT_TIME;
			else if (!strcmp(optarg, "samples"))
				a.weight = OPT_WEIGHT_SAMPLES;
			else if (!strcmp(optarg, "mixed"))
				a.weight = OPT_WEIGHT_MIXED;
			else
				usage_die("--weight is calls, time, samples or mixed, not '%s'", optarg);
			optimize_only = 1;
			break;
		case OPT_BINARY: a.binary = optarg; optimize_only = 1; break;
		case OPT_MAP: a.map = optarg; optimize_only = 1; break;
		case OPT_OBJECTS: a.objects = 1; optimize_only = 1; break;
		case OPT_PID: a.pid = load_parse_id("--pid", optarg); optimize_only = 1; break;
		case OPT_MEASURE: measure = 1; break;
		case OPT_CACHE:
			if (m.ncaches == MEASURE_MAX_CACHES)
				usage_die("--cache is accepted at most %d times", MEASURE_MAX_CACHES);
			if (cache_parse_spec(optarg, &m.caches[m.ncaches], &why))
				usage_die("bad --cache '%s': %s", optarg, why);
			m.ncaches++;
			measure_only = 1;
			break;
		case OPT_RELINK: m.relink = optarg; measure_only = 1; break;
		case OPT_OFFSETS: parse_offsets(optarg, &m); measure_only = 1; break;
		case OPT_STDIN: m.stdin_path = optarg; measure_only = 1; break;
		case OPT_SIMULATE: m.simulate = 1; measure_only = 1; break;
		case OPT_REPEAT: {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 100)
				usage_die("--repeat wants a number from 1 to 100, not '%s'", optarg);
			m.repeat = (int)v;
			measure_only = 1;
			break;
		}
		case 'j': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 256)
				usage_die("--jobs wants a number from 1 to 256, not '%s'", optarg);
			m.jobs = (unsigned)v;
			break;
		}
		case OPT_JSON: m.json = 1; measure_only = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	char **positional = argv + optind;
	size_t npositional = (size_t)(nopts - optind);

	if (!measure) {
		if (measure_only)
			usage_die("--cache, --relink, --offsets, --stdin, --simulate, --repeat and "
				  "--json go with --measure");
		if (nopts < argc)
			usage_die("unexpected '--'; program arguments go with --measure");
		a.positional = positional;
		a.npositional = npositional;
		if (!a.objects) {
			/* the arguments are object files only with --objects */
			a.input = recording_arg("optimize", a.input, (int)npositional, positional, 0);
			a.npositional = 0;
		} else if (!a.input) {
			a.input = RECORDING_DEFAULT;
		}
		return run_optimize(&a);
	}
	if (optimize_only)
		usage_die("--measure compares binaries; the options that lay one out do not go with it");
	if (npositional < 2)
		usage_die("--measure wants two binaries or more: OLD_BIN NEW_BIN [BIN...] -- ARGS");
	m.binaries = positional;
	m.nbinaries = npositional;
	m.args = nopts < argc ? argv + nopts + 1 : NULL;
	m.nargs = nopts < argc ? (size_t)(argc - nopts - 1) : 0;
	return measure_run(&m);
}
