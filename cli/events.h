/*
 * The counters `record -e` can read: perf's names for perf_event_open's
 * (type, config) pairs, and a check that this machine can open one.
 */
#ifndef CALLSCOPE_CLI_EVENTS_H
#define CALLSCOPE_CLI_EVENTS_H

#include <stddef.h>
#include <stdint.h>

struct event_desc {
	const char *name;
	uint32_t type;
	uint64_t config;
	const char *what;
};

/* The known events, in the order `callscope list` shows them. */
extern const struct event_desc event_table[];
extern const size_t event_table_len;

/* Finds NAME (perf's spelling, e.g. "page-faults"), or NULL. */
const struct event_desc *event_find(const char *name);

/*
 * Tries to open the event on this process.  Returns 0, or -1 with WHY
 * filled: whether the event is not supported here, forbidden by
 * kernel.perf_event_paranoid, or something else, and what to do.
 */
int event_probe(const struct event_desc *e, char *why, size_t size);

#endif
