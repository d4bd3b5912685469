/*
 * record --pid: sampling a running process that was not started by
 * callscope, with the kernel's cpu-clock software event (perf_event_open on
 * each of its threads), no code injected.  See docs/live.md.
 */
#ifndef CALLSCOPE_CLI_ATTACH_H
#define CALLSCOPE_CLI_ATTACH_H

/*
 * Samples process PID_TEXT at HZ until interrupted, until DURATION_TEXT
 * seconds passed (NULL: no limit) or until the process ends, then prints a
 * flat profile (hot function first) on stdout.  Returns an exit status.
 */
int attach_record(const char *pid_text, const char *duration_text, unsigned hz);

#endif
