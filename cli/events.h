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

/* Whether this process can open an event, and if not, why. */
enum event_state {
	EVENT_SUPPORTED,
	EVENT_UNSUPPORTED,	/* no such counter on this CPU or kernel */
	EVENT_FORBIDDEN,	/* kernel.perf_event_paranoid or a capability */
	EVENT_UNAVAILABLE,	/* anything else (no perf_event_open, no fds) */
};

/*
 * Tries to open the event on this process.  Returns EVENT_SUPPORTED, or
 * another state with WHY filled: what is wrong, in one line, and what to
 * do.
 */
enum event_state event_probe(const struct event_desc *e, char *why, size_t size);

/* How `callscope list` names STATE: "supported", "forbidden", ... */
const char *event_state_name(enum event_state state);

#endif
