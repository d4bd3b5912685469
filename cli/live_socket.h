/*
 * The client side of the control socket (common/control_proto.h): where a
 * profiled process's socket is, one request and its answer, and reading a
 * snapshot of what the process recorded so far out of its staging files.
 */
#ifndef CALLSCOPE_CLI_LIVE_SOCKET_H
#define CALLSCOPE_CLI_LIVE_SOCKET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The directories this user's sockets may be in, the runtime's first
 * choice first: $XDG_RUNTIME_DIR/callscope when set, and /tmp/callscope-UID
 * (its fallback).  Returns how many were put in DIRS (malloc'd strings);
 * they may not exist.
 */
size_t live_socket_dirs(char *dirs[2]);

/*
 * Sends CMD to process PID and returns its answer (malloc'd text), or NULL
 * with *WHY set to a static description of what failed (errno kept).
 */
char *live_request(pid_t pid, const char *cmd, const char **why);

/* The answer's "ok" or the error line without its code; malloc'd. */
int live_reply_ok(const char *reply);
char *live_reply_error(const char *reply);

/* The value of KEY in an answer, malloc'd, or NULL. */
char *live_reply_get(const char *reply, const char *key);

/* Records written and lost by process PID's threads, from its staging files. */
void live_staging_counts(const char *staging, pid_t pid, uint64_t *events, uint64_t *lost);

/*
 * Seals what process PID recorded so far into OUT (a complete data file),
 * from a "snapshot" answer.  Returns 0, or -1 after printing why.  QUIET:
 * no line saying what was written.
 */
int live_snapshot(pid_t pid, const char *reply, const char *out, int quiet);

#endif
