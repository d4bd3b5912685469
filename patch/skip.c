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
#define PATCH_SKIP_REFUSED_NAME(name, code, phrase) \
	[PATCH_SKIP_REFUSED + name] = "refused at run time: " phrase,
		SITE_REFUSAL_LIST(PATCH_SKIP_REFUSED_NAME)
#undef PATCH_SKIP_REFUSED_NAME
	};
	return code < PATCH_SKIP_COUNT ? names[code] : NULL;
}

unsigned patch_skip_refused(unsigned why)
{
	return PATCH_SKIP_REFUSED + why;
}
