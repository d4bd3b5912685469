/*
 * Why `callscope live` or `top` cannot reach a process, in one line that
 * says what to do: most often the process is running but has no control
 * socket, and which of the record settings left it without one is in the
 * contract its environment still holds.
 */
#ifndef CALLSCOPE_CLI_LIVE_UNREACHABLE_H
#define CALLSCOPE_CLI_LIVE_UNREACHABLE_H

#include <sys/types.h>

/*
 * Dies saying why process PID could not be reached: WHY and ERR are what
 * live_request() set (its description and errno).
 */
_Noreturn void live_unreachable_die(pid_t pid, const char *why, int err);

#endif
