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
	/* refused by the runtime: PATCH_SKIP_REFUSED + enum site_refusal */
	PATCH_SKIP_REFUSED = 9,
	PATCH_SKIP_LOADED_ELSEWHERE = 10,	/* its window is not in the loaded code */
	PATCH_SKIP_PROGRAM_ENTRY = 11,	/* the loaded program's entry point */
	PATCH_SKIP_CODE_CHANGED = 12,	/* the loaded code is not the planned */
	PATCH_SKIP_SLOT_FULL = 13,	/* relocated code longer than a trampoline holds */
	PATCH_SKIP_OUT_OF_REACH = 14,	/* a displacement does not reach from the trampoline */
	PATCH_SKIP_NO_POOL = 15,	/* no trampoline memory within reach */
	PATCH_SKIP_NOT_WRITABLE = 16,	/* the object's code could not be changed */
	PATCH_SKIP_NO_TRAP = 17,	/* no SIGTRAP handler for its trap */
	PATCH_SKIP_COUNT		/* one past the last code */
};

/* The code of a site the runtime refused for WHY (enum site_refusal). */
unsigned patch_skip_refused(unsigned why);

/* "a branch targets the patched bytes", ...: a phrase for reports, or
 * "unknown reason N" spelled by the caller when CODE is past the table. */
const char *patch_skip_name(unsigned code);

#endif
