/*
 * What the layout could not do, each with the calls involved so the user
 * can judge whether it matters: functions without a size, groups or single
 * functions larger than the cache, functions the linker cannot move
 * (shared libraries), functions never called, and names the binary no
 * longer has.
 */
#ifndef CALLSCOPE_OPTIMIZE_WARNINGS_H
#define CALLSCOPE_OPTIMIZE_WARNINGS_H

#include <stddef.h>
#include <stdint.h>

#include "optimize/optimize.h"

enum opt_warning_kind {
	OPT_W_FUNC_TOO_BIG,	/* a hot function larger than the cache by itself */
	OPT_W_GROUP_TOO_BIG,	/* a hot fixed group larger than the cache */
	OPT_W_NO_SIZE,		/* a hot function without size information */
	OPT_W_STALE,		/* in the profile, not in the binary */
	OPT_W_SHARED,		/* in a shared library or another program */
	OPT_W_UNCALLED,		/* in the binary, never called */
	OPT_W_KINDS
};

struct opt_warning {
	enum opt_warning_kind kind;
	uint32_t index;		/* function, or group for OPT_W_GROUP_TOO_BIG */
	uint64_t calls;
	uint64_t size;
};

struct opt_warnings {
	struct opt_warning *list;	/* by kind, then calls (most first), then name */
	size_t n, alloc;
	size_t count[OPT_W_KINDS];
	uint64_t bytes[OPT_W_KINDS];	/* summed sizes, per kind */
};

void opt_warnings_collect(const struct opt_graph *g, const struct opt_params *p,
			  struct opt_warnings *w);
void opt_warnings_release(struct opt_warnings *w);

/* A short description of KIND for listings ("not in the binary"). */
const char *opt_warning_title(enum opt_warning_kind kind);

/* A name for W's subject: the function's, or the group's section and file. */
const char *opt_warning_subject(const struct opt_graph *g, const struct opt_warning *w,
				char *buf, size_t len);

#endif
