/*
 * The client side of the control socket.  The process is reached only
 * through its socket in our private directory; the snapshot reads the
 * staging files the process shares with us the way `record` seals them at
 * the end, with the session's end taken now.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/live_socket.h"
#include "formats/seal.h"
#include "clock.h"
#include "control_proto.h"
#include "sections.h"
#include "die.h"
#include "readfile.h"
#include "xalloc.h"

size_t live_socket_dirs(char *dirs[2])
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	size_t n = 0;

	if (xdg && xdg[0] == '/')
		dirs[n++] = xasprintf("%s/callscope", xdg);
	dirs[n++] = xasprintf("/tmp/callscope-%u", (unsigned)geteuid());
	return n;
}

/* PID's socket: in the first directory that has one (malloc'd). */
static char *socket_path(pid_t pid)
{
	char *dirs[2], *path = NULL;
	size_t n = live_socket_dirs(dirs);
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		char *cand = xasprintf("%s/%d.sock", dirs[i], (int)pid);
		if (!path && (lstat(cand, &st) == 0 || i + 1 == n))
			path = cand;
		else
			free(cand);
		free(dirs[i]);
	}
	return path;
}

static int io_full(int fd, void *buf, size_t len, int writing)
{
	char *p = buf;

	while (len) {
		ssize_t n = writing ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ECONNRESET;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

char *live_request(pid_t pid, const char *cmd, const char **why)
{
	struct sockaddr_un addr;
	struct timeval tv = { CONTROL_TIMEOUT_S * 2, 0 };
	uint8_t head[CONTROL_HEADER];
	size_t len = strlen(cmd);
	char *path = socket_path(pid);
	char *text = NULL;
	uint16_t rlen;
	int fd = -1;

	*why = "the path is too long";
	if (strlen(path) >= sizeof(addr.sun_path) || len > CONTROL_REQUEST_MAX)
		goto out;
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	memcpy(addr.sun_path, path, strlen(path) + 1);
	*why = "cannot create a socket";
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto out;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	*why = "cannot connect";
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
		goto out;
	uint8_t msg[CONTROL_HEADER + CONTROL_REQUEST_MAX];
	control_header_put(msg, (uint16_t)len);
	memcpy(msg + CONTROL_HEADER, cmd, len);
	/* a refusal may come before the request is read and close the
	 * socket under our send: the answer then says why, so read it */
	int sent = io_full(fd, msg, CONTROL_HEADER + len, 1);
	*why = sent == 0 ? "no answer" : "cannot send the request";
	if (io_full(fd, head, sizeof(head), 0) != 0)
		goto out;
	*why = "an answer that is not a callscope control message";
	errno = EPROTO;
	if (control_header_get(head, CONTROL_REPLY_MAX, &rlen) != 0)
		goto out;
	text = xmalloc((size_t)rlen + 1);
	*why = "a cut answer";
	if (io_full(fd, text, rlen, 0) != 0) {
		free(text);
		text = NULL;
		goto out;
	}
	text[rlen] = '\0';
	/* the runtime's text is ours to print: keep it printable */
	for (size_t i = 0; i < rlen; i++)
		if ((text[i] < ' ' && text[i] != '\n') || text[i] == 0x7f)
			text[i] = '?';
out:
	if (fd >= 0) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	free(path);
	return text;
}

int live_reply_ok(const char *reply)
{
	return !strncmp(reply, "ok\n", 3);
}

char *live_reply_error(const char *reply)
{
	const char *p = reply;

	if (!strncmp(p, "error ", 6)) {
		p += 6;
		if (*p == '-')
			p++;
		while (*p >= '0' && *p <= '9')
			p++;
		while (*p == ' ')
			p++;
	}
	size_t n = strcspn(p, "\n");
	char *s = xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

char *live_reply_get(const char *reply, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = reply; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen) || p[klen] != '=')
			continue;
		const char *v = p + klen + 1;
		size_t n = strcspn(v, "\n");
		char *s = xmalloc(n + 1);
		memcpy(s, v, n);
		s[n] = '\0';
		return s;
	}
	return NULL;
}

static uint64_t reply_u64(const char *reply, const char *key)
{
	char *v = live_reply_get(reply, key);
	uint64_t n = v ? strtoull(v, NULL, 10) : 0;
	free(v);
	return n;
}

void live_staging_counts(const char *staging, pid_t pid, uint64_t *events, uint64_t *lost)
{
	char prefix[32];
	DIR *d = opendir(staging);
	struct dirent *e;

	*events = *lost = 0;
	if (!d)
		return;
	snprintf(prefix, sizeof(prefix), "t-%d-", (int)pid);
	while ((e = readdir(d))) {
		struct thread_file_header h;
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		if (pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
		    !memcmp(h.magic, THREAD_FILE_MAGIC, 8)) {
			*events += h.events_written;
			*lost += h.lost_events;
		}
		close(fd);
	}
	closedir(d);
}

/* PID's argument vector, from /proc; malloc'd strings in a malloc'd array. */
static char **proc_argv(pid_t pid, int *argc, char **blob)
{
	char *path = xasprintf("/proc/%d/cmdline", (int)pid);
	size_t len;
	char *buf = read_unsized_file(path, 1u << 20, &len);

	free(path);
	if (!buf)
		buf = xstrdup("");	/* the process is gone: no arguments */
	int n = 0;
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\0';
	if (len && buf[len - 1] != '\0')
		n++;
	char **argv = xmalloc(((size_t)n + 1) * sizeof(*argv));
	int k = 0;
	for (size_t i = 0; i < len && k < n; i += strlen(buf + i) + 1)
		argv[k++] = buf + i;
	argv[k] = NULL;
	*argc = k;
	*blob = buf;
	return argv;
}

int live_snapshot(pid_t pid, const char *reply, const char *out, int quiet)
{
	struct seal_session s;
	struct seal_result res;
	char *staging = live_reply_get(reply, "staging");
	char *clock = live_reply_get(reply, "clock");
	char *mode = live_reply_get(reply, "mode");
	char cwd[4096];
	char *cwd_link = xasprintf("/proc/%d/cwd", (int)pid);
	char *blob;
	int rc = -1;

	memset(&s, 0, sizeof(s));
	if (!staging || !clock || !mode || staging[0] != '/') {
		error("process %d gave no staging directory; is it recorded by this callscope?",
		      (int)pid);
		goto out;
	}
	if (!strcmp(mode, "count")) {
		error("process %d records in --mode=count, whose sums are kept in its memory "
		      "until it ends; snapshots need --mode=trace or flight", (int)pid);
		goto out;
	}
	s.tsc_start = reply_u64(reply, "tsc_start");
	s.mono_start = reply_u64(reply, "mono_start");
	s.unix_start_ns = reply_u64(reply, "unix_start_ns");
	s.clock = !strcmp(clock, "mono") ? CONTRACT_CLOCK_MONO : CONTRACT_CLOCK_TSC;
	s.mode = !strcmp(mode, "flight") ? DATA_MODE_FLIGHT
		 : !strcmp(mode, "sample") ? DATA_MODE_SAMPLE : DATA_MODE_TRACE;
	ssize_t n = readlink(cwd_link, cwd, sizeof(cwd) - 1);
	cwd[n > 0 ? n : 0] = '\0';
	s.cwd = cwd;
	s.argv = proc_argv(pid, &s.argc, &blob);
	/* the end is now: the program goes on, its staging files grow, and
	 * only what was committed by the copy is in the snapshot */
	struct clock_pair end = clock_pair_read(CONTRACT_CLOCK_TSC);
	s.tsc_end = end.clock;
	s.mono_end = end.mono_ns;
	s.flags = SESSION_SNAPSHOT;
	rc = seal_staging(staging, out, &s, &res);
	if (rc == 0 && !quiet)
		fprintf(stderr, "callscope: snapshot of %zu thread%s of process %d into '%s' "
			"(%llu bytes)%s\n", res.threads, res.threads == 1 ? "" : "s", (int)pid,
			out, (unsigned long long)res.bytes,
			res.lost_events ? "; some events were lost, see 'callscope info'" : "");
	free(s.argv);
	free(blob);
out:
	free(cwd_link);
	free(staging);
	free(clock);
	free(mode);
	return rc;
}
