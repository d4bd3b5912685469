/*
 * The call graph report: gprof's layout (one entry per function and per
 * cycle, its callers above, its callees below) filled with the exact
 * times of a trace instead of gprof's estimates.  docs/graph.md describes
 * every column and the JSON schema.
 */
#ifndef CALLSCOPE_REPORT_GRAPH_H
#define CALLSCOPE_REPORT_GRAPH_H

#include <stdio.h>

#include "model/profile.h"

struct graph_options {
	int json;	/* the JSON document instead of the text */
	int brief;	/* text: leave out the "Index by function name" */
};

/*
 * Writes the call graph of P to OUT.  P must have been through
 * profile_find_cycles() (without it every function is shown outside any
 * cycle).  Write errors are left in OUT's error flag for the caller.
 */
void report_graph(FILE *out, const struct profile *p, const struct graph_options *o);

#endif
