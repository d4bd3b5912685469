#include "model/hook_cost_settle.h"

#include <stdlib.h>

#include "xalloc.h"

/* a node of no function (a whole run's root): left as it is */
#define NO_FUNC UINT32_MAX

struct func_sums {
	int64_t sum;		/* of its paths' self times, signed */
	int64_t below;		/* how far its paths below 0 are, in all */
	int64_t to_take;	/* what its other paths have yet to give */
};

/* Passes a change of DELTA in NODE's self time on to its total and its
 * ancestors' (the root's too). */
static void pass_up(const struct settle_tree *t, size_t node, int64_t delta)
{
	for (size_t i = node;; i = t->parent(t->ctx, i)) {
		*t->total(t->ctx, i) += (uint64_t)delta;
		if (i == 0)
			break;
	}
}

void hook_cost_settle_tree(const struct settle_tree *t)
{
	size_t nfuncs = 0;

	for (size_t i = 1; i < t->n; i++)
		if (t->func(t->ctx, i) != NO_FUNC && (size_t)t->func(t->ctx, i) + 1 > nfuncs)
			nfuncs = (size_t)t->func(t->ctx, i) + 1;
	struct func_sums *f = xcalloc(nfuncs + 1, sizeof(*f));
	int any = 0;
	for (size_t i = 1; i < t->n; i++) {
		if (t->func(t->ctx, i) == NO_FUNC)
			continue;
		int64_t self = (int64_t)*t->self(t->ctx, i);
		struct func_sums *s = &f[t->func(t->ctx, i)];
		s->sum += self;
		if (self < 0) {
			s->below -= self;
			any = 1;
		}
	}
	for (size_t k = 0; any && k < nfuncs; k++)
		f[k].to_take = f[k].sum >= 0 ? f[k].below : INT64_MAX;
	for (size_t i = 1; any && i < t->n; i++) {
		if (t->func(t->ctx, i) == NO_FUNC)
			continue;
		struct func_sums *s = &f[t->func(t->ctx, i)];
		uint64_t *selfp = t->self(t->ctx, i);
		int64_t self = (int64_t)*selfp, now = self;
		if (!s->below)
			continue;
		if (self < 0) {
			now = 0;
		} else {
			int64_t take = self < s->to_take ? self : s->to_take;
			now = self - take;
			s->to_take -= take;
		}
		if (now != self) {
			*selfp = (uint64_t)now;
			pass_up(t, i, now - self);
		}
	}
	free(f);
}
