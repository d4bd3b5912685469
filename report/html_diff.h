/*
 * Two profiles side by side for `callscope html --base`: one function
 * table keyed by name (two builds of a program keep their names, not
 * their addresses or paths) and one tree holding the call paths of both.
 */
#ifndef CALLSCOPE_REPORT_HTML_DIFF_H
#define CALLSCOPE_REPORT_HTML_DIFF_H

#include <stdint.h>

#include "model/profile.h"
#include "report/html_tree.h"

struct html_diff {
	struct profile *names;	/* owned: the union's function names */
	uint32_t *cur_func;	/* per union function: index in the current profile or FUNC_NONE */
	uint32_t *base_func;	/* the same in the base profile */
	/* Per union function: the flat numbers of the current (base) run's
	 * functions of that name, summed; name and paths borrowed from the
	 * profiles.  Meaningful where cur_func (base_func) is not FUNC_NONE. */
	struct func *cur_funcs;
	struct func *base_funcs;
	/* Owned: the union of both trees' paths, names indexing NAMES; its
	 * values and timeline are the current run's. */
	struct html_tree *tree;
	uint64_t *base_calls;	/* per union node: the base run's values */
	uint64_t *base_self_ns;
	uint64_t *base_total_ns;
	uint64_t *base_self_samples;
};

/*
 * Builds the union of CUR (its tree CUR_TREE) and BASE (BASE_TREE); both
 * trees finished.  Borrows nothing after it returns.  Free with
 * html_diff_free().
 */
struct html_diff *html_diff_new(const struct profile *cur, const struct html_tree *cur_tree,
				const struct profile *base, const struct html_tree *base_tree);
void html_diff_free(struct html_diff *d);

#endif
