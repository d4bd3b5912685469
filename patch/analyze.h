/*
 * Deciding how each function of one object is patched.  Every function is
 * disassembled once (capstone) for the direct branches, jump tables and
 * code addresses it holds; then each selected function gets a window of
 * whole instructions at its entry (after an endbr64) of at least the 5
 * bytes of a jmp rel32, refused when any known branch lands strictly
 * inside it.  A branch to the patch address itself is fine: it is a loop
 * back to the entry, which runs the jump again (the runtime tells such an
 * iteration from a call).  A function shorter than the jump may spill
 * into the alignment padding after it when nothing reaches that padding.
 * Where no jump fits, the entry's first instruction gets an int3 instead
 * (PATCH_INT3), which the runtime's SIGTRAP handler turns into the jump.
 * Parts split off functions (.cold: they begin inside their parent's
 * frame) and PLT stubs are no functions: left out, the parts counted.
 */
#ifndef CALLSCOPE_PATCH_ANALYZE_H
#define CALLSCOPE_PATCH_ANALYZE_H

#include "patch/plan.h"

/* Which functions of an object to patch: by name (borrowed) and CTX;
 * NAME is NULL for a function only an FDE knows.  A function with several
 * names is asked about each, and wanted if any is. */
typedef int (*patch_wanted_fn)(void *ctx, const char *name);

/*
 * Adds the object PATH to PLAN with a site for each function WANTED
 * accepts and can be patched safely, and the reason for each one that
 * cannot.  Returns 0, or -1 after printing why PATH cannot be read.
 */
int patch_analyze_object(struct patch_plan *plan, const char *path, patch_wanted_fn wanted,
			 void *ctx);

#endif
