/* The flat profile: one line per function, sorted by a chosen column. */
#ifndef CALLSCOPE_REPORT_FLAT_H
#define CALLSCOPE_REPORT_FLAT_H

#include <stdio.h>

#include "model/profile.h"

enum flat_sort {
	FLAT_SORT_SELF,
	FLAT_SORT_TOTAL,
	FLAT_SORT_CALLS,
	FLAT_SORT_AVG,
	FLAT_SORT_MAX,
	FLAT_SORT_NAME,
};

struct flat_options {
	enum flat_sort sort;
	const char *title;	/* a heading line, or NULL */
	int stats;		/* text: add stddev and period columns */
};

/* Parses a --sort value; returns 0 or -1 if unknown. */
int flat_sort_parse(const char *s, enum flat_sort *out);

/* Whether the flat profile lists F: called, took time, or was sampled. */
int flat_func_listed(const struct func *f);

/* Returns a malloc'd array the caller frees: the listed functions in the
 * report's order for S (descending, then by calls, self samples, name);
 * *N gets its length.  Every view of the flat profile uses this order. */
uint32_t *flat_sorted_functions(const struct profile *p, enum flat_sort s, size_t *n);

void report_flat(FILE *out, const struct profile *p, const struct flat_options *o);
/* How the hooks' cost was taken out: the line after PREFIX, and the JSON
 * fields (subtracted per call, or left out as samples by --time-by). */
struct json;
void report_hooks_line(FILE *out, const struct profile *p, const char *prefix);
/* The hooks' cost taken off a call, as the headers say it: "62 ns", or
 * "62 ns per call (77 ns per library call)" where library calls had a
 * figure of their own; into BUF (BUFLEN bytes), which it returns. */
const char *report_hooks_per_call(char *buf, size_t buflen, const struct profile *p);
void report_hooks_json(struct json *j, const struct profile *p);
/* A header line saying how much of a trace's run its main threads waited
 * for a CPU unseen by the clock, when that is a tenth or more. */
/* The share of a run spent waiting for a CPU, and whether it is large
 * enough for the headers to warn that the clock's times include it. */
double report_wait_share(uint64_t cpu_ns, uint64_t wait_ns);
int report_wait_noted(uint64_t cpu_ns, uint64_t wait_ns);
void report_waiting_line(FILE *out, const struct profile *p, const char *prefix);

/* The functions as a JSON array value (the caller has written the key). */
void report_flat_json_functions(struct json *j, const struct profile *p,
				const struct flat_options *o);

#endif
