/*
 * record --patch[=SPEC]: plans the patching of a program without hooks
 * before it starts (patch/), writes the plan where the runtime reads it,
 * and keeps the coverage for the recording.
 */
#ifndef CALLSCOPE_CLI_RECORD_PATCH_H
#define CALLSCOPE_CLI_RECORD_PATCH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Plans SPEC (NULL: every function of PROG) and writes the plan into the
 * staging directory STAGING.  Says on stderr how many functions will be
 * patched.  Returns the PATCH section's payload (malloc'd, the caller
 * frees) with its length in *LEN; dies with one line on a bad SPEC or an
 * unreadable object.
 */
uint8_t *record_patch_plan(const char *prog, const char *spec, const char *staging,
			   size_t *len);

#endif
