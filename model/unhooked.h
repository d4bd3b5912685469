/*
 * Time in code without hooks, measured beside a trace by samples (record's
 * --outside-freq): how much of it went to objects reached through library
 * calls, which the trace shows as those calls' self time, and how much to
 * code neither hooked nor reached through the PLT, which the trace cannot
 * see at all (a library's work called through a function pointer, an
 * uninstrumented copy of a library loaded instead of the -pg build).
 */
#ifndef CALLSCOPE_MODEL_UNHOOKED_H
#define CALLSCOPE_MODEL_UNHOOKED_H

#include <stddef.h>
#include <stdint.h>

enum unhooked_kind {
	UNHOOKED_HOOKED = 0,	/* the PC was in an object with hooks */
	UNHOOKED_SEEN,		/* in one without, inside a traced library call */
	UNHOOKED_UNSEEN,	/* in one without, and no library call open */
};

struct unhooked_object {
	char *object;		/* owned: its path, or "" outside every object */
	uint64_t seen, unseen;	/* weighted samples */
	char *hooked_build;	/* owned: a copy with hooks found on disk, or NULL */
};

struct unhooked {
	uint64_t samples;	/* weighted samples taken beside the trace */
	uint64_t hooked, seen, unseen;
	struct unhooked_object *objects;
	size_t nobjects, objects_alloc;
};

void unhooked_add(struct unhooked *u, const char *object, enum unhooked_kind kind,
		  uint64_t weight);
/* Objects by the time spent in them, most first. */
void unhooked_sort(struct unhooked *u);
void unhooked_free(struct unhooked *u);

#endif
