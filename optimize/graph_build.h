/*
 * From a recorded profile to the optimizer's graph: the profile gives the
 * calls and times, the binary's symbol table the functions that exist and
 * their sizes, and a linker map or the object files (when given) the
 * input sections that bind functions into fixed groups.
 */
#ifndef CALLSCOPE_OPTIMIZE_GRAPH_BUILD_H
#define CALLSCOPE_OPTIMIZE_GRAPH_BUILD_H

#include "model/profile.h"
#include "symbols/elf_funcs.h"
#include "optimize/optimize.h"
#include "optimize/sections.h"

/*
 * What a function's heat is.  Calls are exact; self time is what the
 * instruction cache feels (a loop runs its code many times per call) but
 * a tracer's time is noisy: an activation that happens to absorb the
 * tracer's own stalls (a page fault in its buffer) can outweigh a
 * million ordinary ones.  So calls by default.
 */
enum opt_weight {
	OPT_WEIGHT_CALLS,
	OPT_WEIGHT_TIME,	/* self time; calls where the profile has no times */
	OPT_WEIGHT_SAMPLES,	/* self samples (record --mode=both); else calls */
	OPT_WEIGHT_MIXED,	/* the function's share of the calls plus its share
				 * of the self samples; calls without samples */
};

/* What WEIGHT is called in the .lor ("calls", "self time", ...). */
const char *opt_weight_name(enum opt_weight weight);

struct opt_build_input {
	const struct profile *profile;
	const char *program;		/* the recorded program's path: its functions
					 * are the binary's, all others are "shared" */
	const char *binary_path;	/* where names and sizes come from */
	const struct elf_funcs *binary;
	int same_file;			/* BINARY is the recorded file: match by address;
					 * otherwise by name */
	const struct link_map *map;	/* or NULL */
	const struct object_sections *objects;	/* or NULL */
	enum opt_weight weight;		/* what makes a function hot */
};

/* Returns a finished graph the caller frees with opt_graph_free(). */
struct opt_graph *opt_graph_build(const struct opt_build_input *in);

/* 1 if the paths name the same file (after symlinks), else 0. */
int opt_same_file(const char *a, const char *b);

#endif
