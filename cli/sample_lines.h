/* callscope report --lines: samples per source line of their PC. */
#ifndef CALLSCOPE_CLI_SAMPLE_LINES_H
#define CALLSCOPE_CLI_SAMPLE_LINES_H

#include "load/load.h"

/*
 * Replays the threads F selects from DF and writes the sampled source
 * lines, most samples first (as JSON if JSON).  Returns the command's exit
 * status.
 */
int sample_lines_report(const struct data_file *df, const struct load_filter *f, int json);

#endif
