/* What 'callscope info' says of a recording made with record --patch. */
#ifndef CALLSCOPE_CLI_PATCH_INFO_H
#define CALLSCOPE_CLI_PATCH_INFO_H

#include <stdio.h>

#include "formats/native.h"
#include "json.h"

/*
 * The functions patched, and those skipped counted per reason, as lines
 * beginning with PREFIX; VERBOSE lists the skipped ones by name.  Prints
 * nothing for a recording without patching.
 */
void patch_info_text(FILE *out, const struct data_file *df, const char *prefix, int verbose);

/* The same as the JSON member "patch" (names always), or nothing. */
void patch_info_json(struct json *j, const struct data_file *df);

#endif
