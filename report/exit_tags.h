/*
 * The tags the text reports put after a function or call path some of
 * whose activations did not return: stack repair closed them, after a
 * longjmp or an exception.  One wording for the flat profile, the tree
 * and the replay, so a reader meets the same words everywhere.
 */
#ifndef CALLSCOPE_REPORT_EXIT_TAGS_H
#define CALLSCOPE_REPORT_EXIT_TAGS_H

#include <stdint.h>

#define TAG_LONGJMP " [left by longjmp]"
#define TAG_THROWN " [left by an exception]"
#define TAG_BOTH " [left by longjmp or an exception]"

/* The tag for UNWOUND repaired activations, THROWN of which an exception
 * left; "" when UNWOUND is 0.  Static strings. */
static inline const char *exit_tag(uint64_t unwound, uint64_t thrown)
{
	if (!unwound)
		return "";
	if (!thrown)
		return TAG_LONGJMP;
	return thrown == unwound ? TAG_THROWN : TAG_BOTH;
}

#endif
