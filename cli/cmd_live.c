/*
 * callscope live list
 * callscope live PID status|start|stop|flush|reset
 * callscope live PID snapshot -o FILE
 *
 * Talks to running programs recorded by `callscope record` through their
 * control sockets (runtime/control.c).  See docs/live.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/live_socket.h"
#include "cli/live_unreachable.h"
#include "die.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope live list\n"
	"       callscope live PID status|start|stop|flush|reset\n"
	"       callscope live PID snapshot -o FILE\n"
	"\n"
	"  list      this user's running programs recorded by callscope\n"
	"  status    capture state, mode, events and losses so far\n"
	"  start     turn capture on       stop   turn capture off\n"
	"  flush     make everything recorded so far readable\n"
	"  reset     forget what was recorded so far\n"
	"  snapshot  write a data file of everything recorded so far; the program\n"
	"            goes on (-o FILE, default callscope-PID.data)\n";

static pid_t parse_pid(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > 0x3fffffff)
		usage_die("'%s' is not a process id; see 'callscope live list'", s);
	return (pid_t)v;
}

/* Sends CMD; dies with one line when the process cannot be reached. */
static char *request_or_die(pid_t pid, const char *cmd)
{
	const char *why;
	char *reply = live_request(pid, cmd, &why);

	if (!reply)
		live_unreachable_die(pid, why, errno);
	return reply;
}

static void print_row(pid_t pid, const char *reply)
{
	char *program = live_reply_get(reply, "program");
	char *mode = live_reply_get(reply, "mode");
	char *state = live_reply_get(reply, "state");
	char *staging = live_reply_get(reply, "staging");
	uint64_t events = 0, lost = 0;

	if (staging)
		live_staging_counts(staging, pid, &events, &lost);
	printf("%-8d %-24s %-7s %-5s %12llu %8llu\n", (int)pid, program ? program : "?",
	       mode ? mode : "?", state ? state : "?", (unsigned long long)events,
	       (unsigned long long)lost);
	free(program);
	free(mode);
	free(state);
	free(staging);
}

/* Lists the processes with a socket in DIR; the first directory's
 * sockets are asked, a later one's only if the earlier has none. */
static void list_dir(const char *dir, const char *earlier)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		const char *why;
		if (pid <= 0 || strcmp(end, ".sock"))
			continue;
		if (earlier) {
			char *other = xasprintf("%s/%s", earlier, e->d_name);
			int seen = access(other, F_OK) == 0;
			free(other);
			if (seen)
				continue;
		}
		/* a process gone without removing its socket (killed, or
		 * ended by _exit) is skipped, and its socket removed */
		char *reply = live_request((pid_t)pid, "status", &why);
		if (reply && live_reply_ok(reply))
			print_row((pid_t)pid, reply);
		else if (!reply && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			unlinkat(dirfd(d), e->d_name, 0);
		free(reply);
	}
	closedir(d);
}

static int live_list(void)
{
	char *dirs[2];
	size_t n = live_socket_dirs(dirs);

	printf("%-8s %-24s %-7s %-5s %12s %8s\n", "PID", "PROGRAM", "MODE", "STATE", "EVENTS",
	       "LOST");
	for (size_t i = 0; i < n; i++)
		list_dir(dirs[i], i ? dirs[0] : NULL);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	return 0;
}

static int live_status(pid_t pid)
{
	char *reply = request_or_die(pid, "status");
	char *staging = live_reply_get(reply, "staging");
	uint64_t events = 0, lost = 0;

	if (!live_reply_ok(reply)) {
		char *what = live_reply_error(reply);
		die("process %d refused 'status': %s", (int)pid, what);
	}
	if (staging)
		live_staging_counts(staging, pid, &events, &lost);
	fputs(strchr(reply, '\n') + 1, stdout);
	printf("events=%llu\nlost=%llu\n", (unsigned long long)events, (unsigned long long)lost);
	free(staging);
	free(reply);
	return 0;
}

static int live_simple(pid_t pid, const char *cmd)
{
	char *reply = request_or_die(pid, cmd);

	if (!live_reply_ok(reply)) {
		char *what = live_reply_error(reply);
		error("process %d: '%s' failed: %s", (int)pid, cmd, what);
		free(what);
		free(reply);
		return EXIT_FATAL;
	}
	free(reply);
	return 0;
}

static int live_snapshot_cmd(pid_t pid, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	char *out = NULL;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		if (opt != 'o')
			usage_die("usage: callscope live PID snapshot -o FILE");
		out = xstrdup(optarg);
	}
	if (optind != argc)
		usage_die("unexpected '%s'; usage: callscope live PID snapshot -o FILE", argv[optind]);
	if (!out)
		out = xasprintf("callscope-%d.data", (int)pid);
	char *reply = request_or_die(pid, "snapshot");
	if (!live_reply_ok(reply)) {
		char *what = live_reply_error(reply);
		die("process %d refused 'snapshot': %s", (int)pid, what);
	}
	int rc = live_snapshot(pid, reply, out, 0);
	free(reply);
	free(out);
	return rc == 0 ? 0 : EXIT_FATAL;
}

int cmd_live(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "list"))
		return live_list();
	if (argc < 3) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pid_t pid = parse_pid(argv[1]);
	const char *cmd = argv[2];
	if (!strcmp(cmd, "snapshot"))
		return live_snapshot_cmd(pid, argc - 2, argv + 2);
	if (argc != 3)
		usage_die("'live PID %s' takes no more arguments; see 'callscope live --help'", cmd);
	if (!strcmp(cmd, "status"))
		return live_status(pid);
	if (!strcmp(cmd, "start") || !strcmp(cmd, "stop") || !strcmp(cmd, "flush") ||
	    !strcmp(cmd, "reset"))
		return live_simple(pid, cmd);
	usage_die("'%s' is not a live command; see 'callscope live --help'", cmd);
}
