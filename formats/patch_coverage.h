/*
 * The PATCH section (docs/FORMAT.md): what `record --patch` patched in
 * each object and what it skipped, with the reason.  Read as hostile
 * input like every section: counts are checked against the bytes left and
 * against each other.
 */
#ifndef CALLSCOPE_FORMATS_PATCH_COVERAGE_H
#define CALLSCOPE_FORMATS_PATCH_COVERAGE_H

#include "formats/cursor.h"
#include "formats/native.h"

/* Parses one PATCH section into DF (a second one is damage). */
void patch_coverage_parse(struct cursor *c, struct data_file *df);
void patch_coverage_release(struct data_file *df);

/*
 * One PATCH section for a merge of IN[0..N): every input's objects, each
 * scoped to the process images its input's were renumbered to (its own
 * images plus IMAGE_OFFSET[k], up to IMAGE_OFFSET[k] + IMAGE_MAX[k]), so
 * that an object patched in one run is not taken for patched in another.
 * Returns the payload, malloc'd for the caller to free, with its length
 * in *LEN; NULL when no input has a PATCH section.
 */
uint8_t *patch_coverage_merge(const struct data_file *in, size_t n, const uint32_t *image_offset,
			      const uint32_t *image_max, size_t *len);

/* Whether PATCH object O describes process image IMAGE. */
int patch_coverage_covers(const struct data_patch_object *o, uint32_t image);

#endif
