/*
 * The processes a recorded program starts may outlive it: a job a script
 * put in the background and did not wait for, a daemon.  Each records
 * into the run's staging directory until it ends, so sealing the run as
 * soon as the program ends would keep only what they had written by
 * then, with nothing to say the rest is missing.  record waits for them
 * too: it becomes the subreaper of everything the program starts (an
 * orphan is reparented to it, not to init), and once the program has
 * ended it reaps them all, saying first that it waits and for whom.
 * Ctrl-C stops the waiting; what they recorded so far is sealed, and a
 * warning names those still running.
 */
#ifndef CALLSCOPE_CLI_RECORD_DESCENDANTS_H
#define CALLSCOPE_CLI_RECORD_DESCENDANTS_H

/* Makes this process the subreaper of the processes it will start. */
void descendants_adopt(void);

/* Once the program ended: waits for every process still running that it
 * started (any child of this process, the program's orphans included). */
void descendants_wait(void);

#endif
