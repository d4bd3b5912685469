/*
 * kernel.perf_event_paranoid, which decides what perf_event_open allows a
 * user without CAP_PERFMON: the commands that explain a refused perf
 * event (record -e, attach, optimize --measure) read it here.
 */
#ifndef CALLSCOPE_LIB_PERF_PARANOID_H
#define CALLSCOPE_LIB_PERF_PARANOID_H

/* Reads the setting into *LEVEL.  Returns 0, or -1 (*LEVEL untouched)
 * when it cannot be read, as in a container without /proc/sys. */
int perf_paranoid_read(int *level);

#endif
