#include "cli/record_descendants.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "die.h"
#include "readfile.h"

void descendants_adopt(void)
{
	/* without it (a kernel before 3.4) orphans go to init and are not
	 * waited for, as before */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* Reaps the children that ended; returns 1 while some still run, 0 when
 * none is left. */
static int reap_ended(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		;
	return pid == 0;
}

/*
 * The pids of this process's children, separated by spaces, from the
 * kernel's list (/proc/PID/task/PID/children); a malloc'd string, or NULL
 * where the kernel keeps no list.  *COUNT gets how many.
 */
static char *children(size_t *count)
{
	char path[64];
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
	char *list = read_unsized_file(path, 1 << 20, &len);
	*count = 0;
	if (!list)
		return NULL;
	while (len && list[len - 1] == ' ')
		list[--len] = '\0';
	for (size_t i = 0; i < len; i++)
		*count += list[i] != ' ' && (i == 0 || list[i - 1] == ' ');
	return list;
}

void descendants_wait(void)
{
	sigset_t waited, before;
	size_t n;

	if (!reap_ended())
		return;
	/* Ctrl-C and each child's end are taken synchronously, so that one
	 * arriving between a check and the wait is not missed */
	sigemptyset(&waited);
	sigaddset(&waited, SIGINT);
	sigaddset(&waited, SIGCHLD);
	sigprocmask(SIG_BLOCK, &waited, &before);
	char *pids = children(&n);
	if (pids && n)
		inform("the program ended, but %zu process%s it started still run%s (pid %s); "
		       "waiting for %s, so that %s calls are recorded whole (Ctrl-C stops the "
		       "waiting and keeps what %s recorded so far)",
		       n, n == 1 ? "" : "es", n == 1 ? "s" : "", pids, n == 1 ? "it" : "them",
		       n == 1 ? "its" : "their", n == 1 ? "it" : "they");
	else
		inform("the program ended, but processes it started still run; waiting for them, "
		       "so that their calls are recorded whole (Ctrl-C stops the waiting)");
	free(pids);
	pids = NULL;
	int interrupted = 0;
	while (reap_ended()) {
		int sig = sigwaitinfo(&waited, NULL);
		if (sig == SIGINT) {
			interrupted = 1;
			break;
		}
		if (sig < 0 && errno != EINTR)
			break;
	}
	if (interrupted && (pids = children(&n)) != NULL && n)
		warning("stopped waiting: %zu process%s the program started still run%s (pid %s), "
			"recorded only up to now", n, n == 1 ? "" : "es", n == 1 ? "s" : "", pids);
	else if (interrupted)
		warning("stopped waiting: processes the program started still run, recorded only "
			"up to now");
	free(pids);
	sigprocmask(SIG_SETMASK, &before, NULL);
}
