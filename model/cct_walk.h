/*
 * Depth-first walk of a calling-context tree (model/cct.h), for writers
 * that emit a node before its children and close it after them (nested
 * call/return records, stacks built up and torn down).  Iterative: a
 * recursion a million calls deep in the profiled program cannot overflow
 * the analyzer's stack.
 */
#ifndef CALLSCOPE_MODEL_CCT_WALK_H
#define CALLSCOPE_MODEL_CCT_WALK_H

#include <stdint.h>

#include "model/cct.h"

/*
 * Calls PRE for each node below the root before its children and POST
 * after them (either may be NULL); siblings in the tree's order.  The
 * root itself is not visited.
 */
void cct_walk(const struct cct *t, void (*pre)(void *ctx, const struct cct *t, uint32_t node),
	      void (*post)(void *ctx, const struct cct *t, uint32_t node), void *ctx);

#endif
