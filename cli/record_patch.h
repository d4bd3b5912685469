/*
 * record --patch[=SPEC]: plans the patching of a program without hooks
 * before it starts (patch/), writes the plan where the runtime reads it,
 * and once the program ended, gives the recording the coverage: the
 * plan's, with what the runtime refused added to the skipped functions.
 */
#ifndef CALLSCOPE_CLI_RECORD_PATCH_H
#define CALLSCOPE_CLI_RECORD_PATCH_H

#include <stddef.h>
#include <stdint.h>

struct patch_plan;

/*
 * Plans SPEC (NULL: every function of PROG) and writes the plan into the
 * staging directory STAGING.  Says on stderr how many functions will be
 * patched.  Returns the plan (record_patch_coverage() releases it); dies
 * with one line on a bad SPEC or an unreadable object.
 */
struct patch_plan *record_patch_plan(const char *prog, const char *spec, const char *staging);

/*
 * Releases PLAN and returns the PATCH section's payload (malloc'd, the
 * caller frees) with its length in *LEN: PLAN's coverage less the sites
 * the runtime noted as refused in STAGING.
 */
uint8_t *record_patch_coverage(struct patch_plan *plan, const char *staging, size_t *len);

#endif
