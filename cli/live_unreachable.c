/*
 * A process without a control socket is the usual reason `live` fails
 * (connect() says ENOENT): a program recorded with the default setting
 * gets its socket only when it starts a thread, so a single-threaded one
 * never has one.  The record settings are read back from the contract in
 * /proc/PID/environ (the environment the process was started with, which
 * this user may read), so the message names the one that applies.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/live_unreachable.h"
#include "contract.h"
#include "die.h"
#include "readfile.h"

/* Bound on the environment read: execve() allows far less by default. */
#define ENVIRON_MAX (4u << 20)

/* The live setting PID was recorded with, or -1 when its environment
 * cannot be read or holds no contract (not recorded by callscope). */
static int recorded_live(pid_t pid)
{
	char path[64];
	size_t len;
	int setting = -1;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	char *env = read_unsized_file(path, ENVIRON_MAX, &len);
	if (!env)
		return -1;
	static const char key[] = CONTRACT_ENV "=";
	for (size_t at = 0; at < len; at += strlen(env + at) + 1) {
		struct contract c;
		const char *bad;
		if (strncmp(env + at, key, sizeof(key) - 1))
			continue;
		if (contract_parse(env + at + sizeof(key) - 1, &c, &bad) == 0)
			setting = (int)c.live;
		break;
	}
	free(env);
	return setting;
}

void live_unreachable_die(pid_t pid, const char *why, int err)
{
	if (err != ENOENT)
		die("cannot reach process %d: %s (%s); is it running under 'callscope record' "
		    "as this user? see 'callscope live list'", (int)pid, why, strerror(err));
	if (kill(pid, 0) != 0 && errno == ESRCH)
		die("cannot reach process %d: there is no such process; see 'callscope live list'",
		    (int)pid);
	switch (recorded_live(pid)) {
	case CONTRACT_LIVE_WHEN_THREADED:
		die("cannot reach process %d: it has no control socket; a program recorded "
		    "without --live gets one when it starts a second thread, so record a "
		    "single-threaded one with 'callscope record --live'", (int)pid);
	case CONTRACT_LIVE_NEVER:
		die("cannot reach process %d: it was recorded with --no-live, which gives it no "
		    "control socket; record it with --live to reach it", (int)pid);
	case CONTRACT_LIVE_AT_START:
		die("cannot reach process %d: it has no control socket, though recorded with "
		    "--live; its runtime said why on its stderr (or in record --log's file)",
		    (int)pid);
	default:
		die("cannot reach process %d: it has no control socket; is it running under "
		    "'callscope record' as this user? see 'callscope live list'", (int)pid);
	}
}
