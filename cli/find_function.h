/* A function named on the command line, or a message saying why not. */
#ifndef CALLSCOPE_CLI_FIND_FUNCTION_H
#define CALLSCOPE_CLI_FIND_FUNCTION_H

#include <stdint.h>

#include "model/profile.h"

/*
 * Returns the one function of P that SPEC (model/symspec.h) names; dies
 * with a message if there is none, or several, or SPEC is a form not
 * supported.  OPTION (e.g. "--focus") and INPUT (the data file) are for
 * the messages.
 */
uint32_t find_function(const struct profile *p, const char *spec, const char *option,
		       const char *input);

#endif
