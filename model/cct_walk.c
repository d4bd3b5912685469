#include "model/cct_walk.h"

void cct_walk(const struct cct *t, void (*pre)(void *ctx, const struct cct *t, uint32_t node),
	      void (*post)(void *ctx, const struct cct *t, uint32_t node), void *ctx)
{
	uint32_t n = t->nnodes ? t->nodes[CCT_ROOT].first_child : CCT_NONE;

	while (n != CCT_NONE) {
		if (pre)
			pre(ctx, t, n);
		if (t->nodes[n].first_child != CCT_NONE) {
			n = t->nodes[n].first_child;
			continue;
		}
		/* A leaf: close it and its ancestors until one has a sibling. */
		for (;;) {
			if (post)
				post(ctx, t, n);
			if (t->nodes[n].next_sibling != CCT_NONE) {
				n = t->nodes[n].next_sibling;
				break;
			}
			n = t->nodes[n].parent;
			if (n == CCT_ROOT || n == CCT_NONE) {
				n = CCT_NONE;
				break;
			}
		}
	}
}
