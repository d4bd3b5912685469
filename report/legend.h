/*
 * The legend under a text report: one line for each tag its lines
 * printed, and for no other.  A report passes every tag it prints through
 * legend_use() and ends with legend_print().
 */
#ifndef CALLSCOPE_REPORT_LEGEND_H
#define CALLSCOPE_REPORT_LEGEND_H

#include <stdio.h>

#include "report/exit_tags.h"
#include "report/marks.h"

#define TAG_RUNNING " [still running at the end]"
#define TAG_STOPPED " [capture stopped]"
#define TAG_BEGUN_BEFORE " [began before the recorded window]"
#define TAG_CONTEXT " [context]"
#define TAG_COUNTERS " [counters possibly incorrect]"
#define TAG_CONTINUED " [continued from before the data]"
#define TAG_DOUBTFUL " [self time within the hooks' error]"
#define TAG_DOUBTFUL_TOTAL " [total within the hooks' error]"
#define TAG_DOUBTFUL_BOTH " [times within the hooks' error]"
#define TAG_UNTIMED " [counted, not timed]"

#define LEGEND_TAGS 13

struct legend {
	unsigned char seen[LEGEND_TAGS];
};

/* Notes that a line printed TAG (one of the tags above, leading blanks
 * allowed, or ""); returns TAG, to print. */
const char *legend_use(struct legend *l, const char *tag);

/* Prints "#" then "# TAG: what it means" for each tag used; nothing if none. */
void legend_print(FILE *out, const struct legend *l);

#endif
