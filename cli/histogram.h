/* callscope report --histogram FUNC: one function's call durations. */
#ifndef CALLSCOPE_CLI_HISTOGRAM_H
#define CALLSCOPE_CLI_HISTOGRAM_H

#include "load/load.h"

/*
 * Replays the threads F selects from DF and writes the histogram of the
 * durations of the calls of the function SPEC names (as JSON if JSON).
 * INPUT names DF in messages.  Returns the command's exit status.
 */
int histogram_report(const struct data_file *df, const struct load_filter *f,
		     const char *spec, int json, const char *input);

#endif
