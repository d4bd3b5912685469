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

#endif
