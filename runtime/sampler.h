/* The sampler (sampler.c): statistical profiling, started by init.c. */
#ifndef CALLSCOPE_RUNTIME_SAMPLER_H
#define CALLSCOPE_RUNTIME_SAMPLER_H

#include "runtime.h"

/* Starts sampling when the contract asks for it (smp): the calling (main)
 * thread now, threads created later from pthread_create. */
HIDDEN void sampler_install(void);
/* The sampler's fork handler for a child, run by runtime_forked(). */
HIDDEN void sampler_forked(void);
/* Objects were loaded (dlopen): their code becomes known to the stack
 * walk, and --only matches them.  Not from a signal handler. */
HIDDEN void sampler_objects_loaded(void);
/* Around an exec (exec.c): the calling thread's task-clock event stops
 * before it, and starts again when it fails (errno is kept). */
HIDDEN void sampler_exec_begin(void);
HIDDEN void sampler_exec_failed(void);
/* The process ends in the calling thread: its sampling stops, as what it
 * runs from here is the runtime's work. */
HIDDEN void sampler_process_exiting(void);
/* The real-time signal the sampler took, or 0 when it is off. */
HIDDEN int sampler_signal(void);
/* sigaction() for that signal: keeps the program's action aside. */
struct sigaction;
HIDDEN int sampler_sigaction(const struct sigaction *act, struct sigaction *old);

#endif
