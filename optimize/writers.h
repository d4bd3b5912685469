/*
 * The optimizer's output files, all from one layout:
 *
 *   PREFIX.lor         the link order for people: cliques with their sizes,
 *                      calls and members, then the warnings, then the
 *                      fixed groups
 *   PREFIX.order       symbol ordering file, one function a line
 *                      (lld: -Wl,--symbol-ordering-file=)
 *   PREFIX.cg          "caller callee count" lines
 *                      (lld: -Wl,--call-graph-ordering-file=, lld clusters)
 *   PREFIX.gold-order  input section names, one a line
 *                      (gold: -Wl,--section-ordering-file=)
 *   PREFIX.ld          a GNU ld script that adds an output section holding
 *                      the hot input sections in order, inserted before
 *                      .text (-Wl,-T,PREFIX.ld)
 *
 * The last two need the real input section names, so they are written
 * only when a map or the objects gave them.  Both start with the padding
 * section OPT_PAD_SECTION, which no program defines: it matches nothing in
 * a normal link, and lets 'optimize --measure --relink' put padding in
 * front of the hot code to measure it at several code offsets.  Each file
 * is written under a temporary name and renamed into place.
 */
#ifndef CALLSCOPE_OPTIMIZE_WRITERS_H
#define CALLSCOPE_OPTIMIZE_WRITERS_H

#include <stdint.h>

#include "optimize/optimize.h"
#include "optimize/warnings.h"

/*
 * The padding object's section and symbol (see optimize/measure.c).  The
 * name starts with .text.unlikely so that GNU ld's and gold's default
 * layouts put it first of all code, as lld's does with the first object.
 */
#define OPT_PAD_SECTION ".text.unlikely.callscope_pad"
#define OPT_PAD_SYMBOL "callscope_pad"

struct opt_output_info {
	const char *binary;		/* path of the binary laid out */
	const char *profile;		/* path of the recording */
	const char *algorithm;
	const char *algorithm_summary;
	const char *groups_source;	/* "the linker map 'x'", or NULL when assumed */
	uint64_t cache_size;
	const char *weight;		/* "calls" or "time" */
};

/* What the writers left out, for the command to tell. */
struct opt_write_stats {
	size_t gold_unnamed;	/* hot groups gold cannot name (section name not unique) */
};

/* Each returns 0, or -1 after printing one line. */
int opt_write_lor(const char *path, const struct opt_graph *g, const struct opt_layout *l,
		  const struct opt_warnings *w, const struct opt_output_info *info);
int opt_write_symbol_order(const char *path, const struct opt_graph *g,
			   const struct opt_layout *l);
int opt_write_call_graph(const char *path, const struct opt_graph *g);
int opt_write_gold_order(const char *path, const struct opt_graph *g,
			 const struct opt_layout *l, struct opt_write_stats *stats);
int opt_write_ld_script(const char *path, const struct opt_graph *g,
			const struct opt_layout *l, const struct opt_output_info *info);

#endif
