/* The source file and line where each function of a recording begins. */
#ifndef CALLSCOPE_CLI_FUNCTION_LINES_H
#define CALLSCOPE_CLI_FUNCTION_LINES_H

#include "formats/native.h"
#include "model/profile.h"

/*
 * Fills file and line of the functions of P that have none, from the
 * objects DF recorded (checked against their build IDs; an object that
 * cannot be read or trusted gives no lines).  P's functions must have
 * been named from DF.
 */
void function_lines_load(const struct data_file *df, struct profile *p);

#endif
