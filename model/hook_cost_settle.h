/*
 * Holding a call-path tree's finished sums at 0 the way the flat profile
 * does, and so that the tree still adds up (model/hook_cost.h: the hooks'
 * cost is taken from every call signed, and a short function's path can
 * end below 0).  Per function, the paths below 0 are raised to 0 and as
 * much is taken from the function's other paths, first come first, so its
 * paths add up to its flat self time, max(sum, 0); every change is passed
 * on to the path's total and its ancestors' totals, so self + children =
 * total at every node and the self times add up to the root's total.
 */
#ifndef CALLSCOPE_MODEL_HOOK_COST_SETTLE_H
#define CALLSCOPE_MODEL_HOOK_COST_SETTLE_H

#include <stddef.h>
#include <stdint.h>

/* A tree of N nodes, node 0 the root and every parent before its
 * children, seen through these (CTX their first argument). */
struct settle_tree {
	void *ctx;
	size_t n;
	uint32_t (*func)(void *ctx, size_t node);
	size_t (*parent)(void *ctx, size_t node);	/* of a node above 0 */
	uint64_t *(*self)(void *ctx, size_t node);
	uint64_t *(*total)(void *ctx, size_t node);
};

void hook_cost_settle_tree(const struct settle_tree *t);

#endif
