/*
 * The value of --threshold PCT (tree, diff): what is below PCT percent is
 * hidden.
 */
#ifndef CALLSCOPE_CLI_THRESHOLD_ARG_H
#define CALLSCOPE_CLI_THRESHOLD_ARG_H

/* VALUE as a percentage from 0 to 100; anything else is a usage error. */
double threshold_arg(const char *value);

#endif
