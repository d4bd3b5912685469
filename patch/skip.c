#include "patch/skip.h"

#include <stddef.h>

const char *patch_skip_name(unsigned code)
{
	static const char *const names[PATCH_SKIP_COUNT] = {
		[PATCH_OK] = "patched",
		[PATCH_SKIP_BRANCH_INTO_WINDOW] = "a branch lands in the bytes the jump replaces",
		[PATCH_SKIP_TOO_SMALL] = "shorter than a jump, with no free padding after it",
		[PATCH_SKIP_UNDECODABLE] = "instructions that cannot be decoded",
		[PATCH_SKIP_LONG_WINDOW] = "first instructions longer than 16 bytes",
		[PATCH_SKIP_UNRELOCATABLE] = "an instruction that cannot be moved",
		[PATCH_SKIP_CALL_IN_WINDOW] = "a call that would return into the jump",
		[PATCH_SKIP_HOOK] = "a profiling hook",
		[PATCH_SKIP_NO_CODE] = "no code in the file",
		[PATCH_SKIP_NOT_CALLED] = "entered without a call (an entry point, a signal return)",
		[PATCH_SKIP_LOADED_ELSEWHERE] = "refused at run time: its bytes are not in the loaded code",
		[PATCH_SKIP_PROGRAM_ENTRY] = "refused at run time: the program's entry point",
		[PATCH_SKIP_CODE_CHANGED] = "refused at run time: the loaded code differs from the file's",
		[PATCH_SKIP_SLOT_FULL] = "refused at run time: relocated code too long for a trampoline",
		[PATCH_SKIP_OUT_OF_REACH] = "refused at run time: out of reach of its trampoline",
		[PATCH_SKIP_NO_POOL] = "refused at run time: no trampoline memory within reach",
		[PATCH_SKIP_NOT_WRITABLE] = "refused at run time: its code could not be made writable",
		[PATCH_SKIP_NO_TRAP] = "refused at run time: no SIGTRAP handler for its trap",
	};
	return code < PATCH_SKIP_COUNT ? names[code] : NULL;
}

unsigned patch_skip_refused(unsigned why)
{
	_Static_assert(PATCH_SKIP_REFUSED + SITE_NO_TRAP == PATCH_SKIP_NO_TRAP &&
			       PATCH_SKIP_REFUSED + SITE_OUTSIDE_TEXT == PATCH_SKIP_LOADED_ELSEWHERE,
		       "a runtime refusal's skip code");
	return PATCH_SKIP_REFUSED + why;
}
