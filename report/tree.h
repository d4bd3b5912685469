/*
 * The call-path tree report: one line (or JSON object) per node of a
 * calling-context tree, children under their parent sorted by a chosen
 * column, with thresholds that hide the cold or deep paths and say how
 * many they hid.  docs/tree.md describes every column and the JSON.
 */
#ifndef CALLSCOPE_REPORT_TREE_H
#define CALLSCOPE_REPORT_TREE_H

#include <stdio.h>

#include "model/cct.h"
#include "model/profile.h"

enum tree_sort_kind {
	TREE_SORT_METRIC,	/* a metric's self or total */
	TREE_SORT_CALLS,
	TREE_SORT_NAME,
};

struct tree_sort {
	enum tree_sort_kind kind;
	enum cct_metric metric;	/* TREE_SORT_METRIC */
	int total;		/* TREE_SORT_METRIC: total rather than self */
};

struct tree_options {
	struct tree_sort sort;
	double threshold_pct;	/* hide nodes whose total is below this
				 * share of the root's; 0 shows all */
	long depth;		/* show nodes at most this many calls below
				 * the root; -1 for no limit */
	const char *focus;	/* the spec the tree was re-rooted at, or NULL */
	int json;
};

/*
 * Parses a --sort value: total (the default), self, calls, name, and for
 * the counters c1, c1_total, c2, c2_total.  Returns 0, or -1 if unknown.
 */
int tree_sort_parse(const char *s, struct tree_sort *out);

/* The --sort names, for messages ("total, self, calls, ..."). */
const char *tree_sort_names(void);

/*
 * Writes tree T to OUT.  NAMES is the profile T's function numbers index
 * (built from the same replay: its calls, losses and hook cost go in the
 * header).  Write errors are left in OUT's error flag for the caller.
 */
void report_tree(FILE *out, const struct cct *t, const struct profile *names,
		 const struct tree_options *o);

#endif
