/*
 * One function's call durations as a histogram with power-of-two buckets
 * (model/histogram.h), as text with bars or as JSON.  docs/report.md
 * describes both.
 */
#ifndef CALLSCOPE_REPORT_HISTOGRAM_H
#define CALLSCOPE_REPORT_HISTOGRAM_H

#include <stdio.h>

#include "model/histogram.h"
#include "model/profile.h"

/* Writes H, the durations of function FUNC of P, to OUT. */
void report_histogram(FILE *out, const struct profile *p, uint32_t func,
		      const struct log2_hist *h, int json);

#endif
