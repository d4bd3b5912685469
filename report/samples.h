/*
 * The sampled profile (record --sample): functions by their share of the
 * samples, self and with callees, beside the traced numbers when the run
 * has both.  Every report says how many samples were lost, how many fell
 * outside every known object, and how the stacks were found.
 */
#ifndef CALLSCOPE_REPORT_SAMPLES_H
#define CALLSCOPE_REPORT_SAMPLES_H

#include <stdio.h>

#include "model/profile.h"

/* The stack methods seen: one ("frame pointers"), or each with its share
 * of the samples ("frame pointers 60 %, DWARF unwinding 40 %").  Returns
 * a malloc'd string the caller frees. */
char *report_samples_method(const struct profile *p);

/* Where the samples came from when not from the task-clock event alone:
 * "" or " (...)", for a summary line.  The caller frees it. */
char *report_samples_source_note(const struct profile *p);

/* What the samples measure: "wall time", "CPU time, user and system",
 * "user CPU time" where some samples count no kernel time (perf events
 * limited to user space), or "CPU time" for count mode's in recordings
 * whose threads did not say. */
const char *report_samples_clock(const struct profile *p);

/* The summary lines (samples, lost, outside, truncated, method). */
void report_samples_summary(FILE *out, const struct profile *p);

/* The summary and one line per sampled function, most self samples first. */
void report_samples(FILE *out, const struct profile *p);

struct json;
/* The profile-level sample fields, as key/value pairs of the open object. */
void report_samples_json_fields(struct json *j, const struct profile *p);

#endif
