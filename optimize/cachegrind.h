/*
 * Reading cachegrind's output file (cachegrind.out.PID): the totals of the
 * "summary:" line, and the instructions executed per function, summed over
 * the source files a function's lines come from.  The file is treated as
 * hostile text: unknown lines are skipped, numbers are checked, and a file
 * without an "events:" line naming Ir is an error.
 */
#ifndef CALLSCOPE_OPTIMIZE_CACHEGRIND_H
#define CALLSCOPE_OPTIMIZE_CACHEGRIND_H

#include <stddef.h>
#include <stdint.h>

struct cg_func {
	char *name;		/* owned; as cachegrind wrote it, "@VERSION" cut off */
	uint64_t ir;		/* instructions executed in it */
};

struct cg_result {
	uint64_t ir;		/* all instructions executed */
	uint64_t i1_misses;	/* I1 misses; 0 when has_i1 is 0 */
	int has_i1;		/* the cache was simulated */
	struct cg_func *funcs;	/* sorted by name, one entry a name */
	size_t nfuncs, funcs_alloc;
};

/*
 * Parses TEXT (LEN bytes).  Returns 0, or -1 with the reason in ERR.  OUT is
 * always safe to release.
 */
int cg_parse(const char *text, size_t len, struct cg_result *out, char *err, size_t errlen);
/* Reads and parses PATH; on failure prints one line and returns -1. */
int cg_load(const char *path, struct cg_result *out);
void cg_release(struct cg_result *r);

#endif
