/*
 * How much of a traced run's time was in code without hooks (see
 * model/unhooked.h), where, and what would make it visible.
 */
#ifndef CALLSCOPE_REPORT_UNHOOKED_H
#define CALLSCOPE_REPORT_UNHOOKED_H

#include <stdio.h>

#include "model/profile.h"

struct json;

/* Lines that each begin with PREFIX ("# " in a report's header); nothing
 * when the run was not sampled beside its trace. */
void report_unhooked(FILE *out, const struct profile *p, const char *prefix);
/* An "unhooked" member of the current JSON object. */
void report_unhooked_json(struct json *j, const struct profile *p);

#endif
