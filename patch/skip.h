/*
 * Why a function's entry is left unpatched.  The codes are stored in the
 * recording (docs/FORMAT.md, PATCH section): never renumber one, only add.
 */
#ifndef CALLSCOPE_PATCH_SKIP_H
#define CALLSCOPE_PATCH_SKIP_H

#include "patch_plan.h"

enum patch_skip {
	PATCH_OK = 0,
	PATCH_SKIP_BRANCH_INTO_WINDOW = 1,	/* a known branch lands inside the bytes the jump replaces */
	PATCH_SKIP_TOO_SMALL = 2,	/* shorter than the jump, no free padding after it */
	PATCH_SKIP_UNDECODABLE = 3,	/* capstone cannot decode its first instructions */
	PATCH_SKIP_LONG_WINDOW = 4,	/* whole instructions reach past PATCH_WINDOW_MAX */
	PATCH_SKIP_UNRELOCATABLE = 5,	/* an instruction that cannot run elsewhere */
	PATCH_SKIP_CALL_IN_WINDOW = 6,	/* a call whose return would land in the jump */
	PATCH_SKIP_HOOK = 7,		/* a profiling hook itself */
	PATCH_SKIP_NO_CODE = 8,		/* its bytes are not in the file */
	PATCH_SKIP_NOT_CALLED = 9,	/* entered by a jump with no return address */
	/* refused by the runtime: PATCH_SKIP_REFUSED + enum site_refusal,
	 * 10..17 (common/patch_plan.h) */
	PATCH_SKIP_REFUSED = 9,
	PATCH_SKIP_COUNT = PATCH_SKIP_REFUSED + SITE_REFUSALS	/* one past the last code */
};

/* The code of a site the runtime refused for WHY (enum site_refusal). */
unsigned patch_skip_refused(unsigned why);

/* "a branch targets the patched bytes", ...: a phrase for reports, or
 * "unknown reason N" spelled by the caller when CODE is past the table. */
const char *patch_skip_name(unsigned code);

#endif
