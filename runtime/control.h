/*
 * Live control of the capture: the in-program API (api.c) and the control
 * socket (control.c) share these.  Return values are callscope.h's codes.
 */
#ifndef CALLSCOPE_RUNTIME_CONTROL_H
#define CALLSCOPE_RUNTIME_CONTROL_H

#include "runtime.h"

/* Turns capture on (ON=1) or off for the whole process. */
HIDDEN int capture_set(int on);
/* 1 capturing, 0 stopped, or a negative code. */
HIDDEN int capture_enabled(void);
HIDDEN int capture_flush(void);
HIDDEN int capture_reset(void);

/* Starts the control socket's thread, or readies it to start with the
 * program's first thread (contract's live); quiet no-op when it cannot. */
HIDDEN void control_start(void);
/* The program started a thread (pthread_create succeeded): the socket
 * that was waiting for it starts, once per process. */
HIDDEN void control_program_threaded(void);
/* In a forked child: a socket of its own. */
HIDDEN void control_after_fork(int serve);

#endif
