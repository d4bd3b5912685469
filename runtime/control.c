/*
 * The control socket: `callscope live` talks to a running program through
 * it.  One socket per process, DIR/PID.sock in a private 0700 directory
 * (see common/control_proto.h), bound under a temporary name, made 0600
 * and renamed into place, so no one ever sees it with looser rights.
 *
 * A thread of its own serves it, several clients at once (own_thread.c:
 * no hook fires on it, and the program's signals stay the program's).
 * Every peer's credentials are checked (same user or root), every message
 * is length-capped and versioned, and a peer that stalls is dropped after
 * CONTROL_TIMEOUT_S, while the others are served: nothing a client sends
 * can stop the program or keep another client waiting.
 *
 * The serving thread is made by pthread_create, which switches glibc for
 * good to its slower paths for many threads (own_thread.c says which).  So
 * by default (CONTRACT_LIVE_WHEN_THREADED) the socket and its thread wait
 * for the program's first pthread_create, after which glibc is on those
 * paths anyway, and a single-threaded program runs as it would
 * unrecorded; record --live starts them before main(), record --no-live
 * never.
 */
#define _GNU_SOURCE
#include "control.h"
#include "control_proto.h"
#include "callscope.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static struct {
	int fd;
	pid_t owner;		/* the process that made the socket */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	uint64_t tsc_start, mono_start, unix_start_ns;
	char staging[CONTRACT_PATH_MAX + 1024];	/* absolute: clients have another cwd */
	struct rt_file_id fd_id;	/* the socket fd was made for */
} control = { -1, 0, "", 0, 0, 0, "" };

/*
 * Where this process is on the way to its socket.  control_start() leaves
 * it WAITING when the socket is to come with the program's first thread;
 * the first pthread_create to move it on to LISTENING makes the socket,
 * however many threads create threads at once.
 */
enum control_stage {
	CONTROL_NONE = 0,	/* no socket to come: --no-live, or inert */
	CONTROL_WAITING,	/* one comes with the program's first thread */
	CONTROL_LISTENING,	/* made (or tried and failed: not again) */
};
static int control_stage;

int capture_set(int on)
{
	int expected = !on;

	if (!runtime_config.active)
		return CALLSCOPE_EINACTIVE;
	/* the call-path mode keeps sums, not a stream a stop could cut */
	if (runtime_config.contract.count_nodes)
		return CALLSCOPE_ENOTSUP;
	if (!__atomic_compare_exchange_n(&capture_state.on, &expected, on, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return on ? CALLSCOPE_EALREADY_ON : CALLSCOPE_EALREADY_OFF;
	__atomic_add_fetch(&capture_state.epoch, 1, __ATOMIC_ACQ_REL);
	return CALLSCOPE_OK;
}

int capture_enabled(void)
{
	if (!runtime_config.active)
		return CALLSCOPE_EINACTIVE;
	return __atomic_load_n(&capture_state.on, __ATOMIC_ACQUIRE) ? 1 : 0;
}

/* Records are written straight into shared file mappings and their
 * thread's committed end is advanced after each: a reader already sees
 * every whole record, so there is nothing to push out. */
int capture_flush(void)
{
	return runtime_config.active ? CALLSCOPE_OK : CALLSCOPE_EINACTIVE;
}

/*
 * Every thread writes a RESET record (and a SYNC to start again from) at
 * its next hook; readers discard what came before.  The aggregate mode
 * keeps sums, which cannot be taken apart: not there.
 */
int capture_reset(void)
{
	if (!runtime_config.active)
		return CALLSCOPE_EINACTIVE;
	if (runtime_config.contract.count_nodes)
		return CALLSCOPE_ENOTSUP;
	__atomic_add_fetch(&capture_state.reset_epoch, 1, __ATOMIC_ACQ_REL);
	__atomic_add_fetch(&capture_state.epoch, 1, __ATOMIC_ACQ_REL);
	return CALLSCOPE_OK;
}

/* Makes (or accepts) DIR: ours, a directory, reachable by no one else. */
static int private_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return -1;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077))
		return -1;
	return 0;
}

static int socket_dir(char *buf, char *end)
{
	const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
	char *p;

	if (xdg && xdg[0] == '/') {
		p = rt_append(buf, end, xdg);
		p = rt_append(p, end, "/callscope");
		if (p && private_dir(buf) == 0)
			return 0;
	}
	/* no usable $XDG_RUNTIME_DIR (unset, or a stale one from a login
	 * the program outlived): the per-user directory in /tmp */
	p = rt_append(buf, end, "/tmp/callscope-");
	p = rt_append_u64(p, end, geteuid());
	return p && private_dir(buf) == 0 ? 0 : -1;
}

static const char *mode_name(void)
{
	if (runtime_config.contract.count_nodes)
		return "count";
	if (runtime_config.contract.sample_only)
		return "sample";
	return runtime_config.contract.ring_bytes ? "flight" : "trace";
}

static char *put_kv(char *p, char *end, const char *key, const char *value)
{
	p = rt_append(p, end, key);
	p = rt_append(p, end, "=");
	p = rt_append(p, end, value);
	return rt_append(p, end, "\n");
}

static char *put_kv_u64(char *p, char *end, const char *key, uint64_t value)
{
	p = rt_append(p, end, key);
	p = rt_append(p, end, "=");
	p = rt_append_u64(p, end, value);
	return rt_append(p, end, "\n");
}

/* What a client needs to list the process or seal a snapshot of it. */
static char *put_status(char *p, char *end)
{
	p = put_kv_u64(p, end, "pid", (uint64_t)getpid());
	p = put_kv(p, end, "program", program_invocation_name);
	p = put_kv(p, end, "mode", mode_name());
	p = put_kv(p, end, "state", capture_enabled() == 1 ? "on" : "off");
	p = put_kv(p, end, "clock", runtime_config.contract.clock == CONTRACT_CLOCK_MONO ? "mono" : "tsc");
	p = put_kv_u64(p, end, "tsc_start", control.tsc_start);
	p = put_kv_u64(p, end, "mono_start", control.mono_start);
	p = put_kv_u64(p, end, "unix_start_ns", control.unix_start_ns);
	return put_kv(p, end, "staging", control.staging);
}

static char *put_result(char *p, char *end, int rc)
{
	if (rc >= 0)
		return rt_append(p, end, "ok\n");
	p = rt_append(p, end, "error ");
	p = rt_append(p, end, "-");
	p = rt_append_u64(p, end, (uint64_t)-rc);
	p = rt_append(p, end, " ");
	p = rt_append(p, end, callscope_strerror(rc));
	return rt_append(p, end, "\n");
}

static void reply(int fd, const char *text)
{
	uint8_t msg[CONTROL_HEADER + CONTROL_REPLY_MAX];
	size_t len = strnlen(text, CONTROL_REPLY_MAX);

	control_header_put(msg, (uint16_t)len);
	memcpy(msg + CONTROL_HEADER, text, len);
	/* MSG_NOSIGNAL: a client gone away must not raise SIGPIPE */
	ssize_t ignored = send(fd, msg, CONTROL_HEADER + len, MSG_NOSIGNAL);
	(void)ignored;
}

/*
 * Ends a connection after its answer.  Bytes the client sent past a bad
 * header are read and dropped first: closing a socket with unread data
 * resets the connection, and the client may lose the answer to it.
 */
static void hang_up(int fd)
{
	char sink[4096];

	shutdown(fd, SHUT_WR);
	for (int i = 0; i < 64 && recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; i++)
		;
	close(fd);
}

/* Answers a whole request. */
static void answer(int fd, const char *cmd, uint16_t len)
{
	char out[CONTROL_REPLY_MAX];
	char *end = out + sizeof(out);
	char *p = out;

	switch (control_command_of(cmd, len)) {
	case CONTROL_SNAPSHOT:
		/* the snapshot must name what the program has loaded by now */
		process_objects_refresh();
		/* fall through */
	case CONTROL_STATUS:
		p = put_result(p, end, 0);
		p = put_status(p, end);
		break;
	case CONTROL_START: p = put_result(p, end, capture_set(1)); break;
	case CONTROL_STOP: p = put_result(p, end, capture_set(0)); break;
	case CONTROL_FLUSH: p = put_result(p, end, capture_flush()); break;
	case CONTROL_RESET: p = put_result(p, end, capture_reset()); break;
	default: p = rt_append(p, end, "error -10 unknown command\n"); break;
	}
	if (!p)
		p = rt_append(out, end, "error -11 answer too long\n");
	reply(fd, out);
}

/*
 * A client being read.  Several are served at once, each on its own
 * clock, so one that stalls delays no other: it is dropped when its
 * CONTROL_TIMEOUT_S run out.
 */
#define CLIENTS_MAX 8

struct client {
	int fd;			/* -1: a free slot */
	uint64_t deadline_ms;
	uint16_t have, need;	/* bytes read, bytes the message has */
	uint8_t msg[CONTROL_HEADER + CONTROL_REQUEST_MAX];
};

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void client_end(struct client *c)
{
	hang_up(c->fd);
	c->fd = -1;
}

/* Reads what C sent; answers and ends it once its message is whole. */
static void client_read(struct client *c)
{
	ssize_t n = recv(c->fd, c->msg + c->have, (size_t)(c->need - c->have), MSG_DONTWAIT);
	uint16_t len;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {		/* gone before its message was whole */
		close(c->fd);
		c->fd = -1;
		return;
	}
	c->have = (uint16_t)(c->have + n);
	if (c->have < c->need)
		return;
	if (c->need == CONTROL_HEADER) {
		switch (control_header_get(c->msg, CONTROL_REQUEST_MAX, &len)) {
		case -1: reply(c->fd, "error -7 not a callscope control message\n"); break;
		case -2: reply(c->fd, "error -8 unsupported protocol version\n"); break;
		case -3: reply(c->fd, "error -9 message too long\n"); break;
		default:
			c->need = (uint16_t)(CONTROL_HEADER + len);
			if (len)
				return;
		}
		if (c->need == CONTROL_HEADER) {
			client_end(c);
			return;
		}
	}
	answer(c->fd, (const char *)c->msg + CONTROL_HEADER, (uint16_t)(c->need - CONTROL_HEADER));
	client_end(c);
}

/*
 * Takes a new connection, if its peer may talk to us and there is room.
 * Returns -1 when the socket is gone (the program closed our fd).
 */
static int client_accept(struct client *clients)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	int fd = rt_fd_above_limit(accept4(control.fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK));

	if (fd < 0) {
		if (errno == EBADF || errno == EINVAL || errno == ENOTSOCK)
			return -1;
		/* out of fds or memory: wait instead of spinning */
		struct timespec pause = { 0, 100 * 1000 * 1000 };
		if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN)
			nanosleep(&pause, NULL);
		return 0;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 ||
	    (cred.uid != geteuid() && cred.uid != 0)) {
		reply(fd, "error -6 permission denied: another user's process\n");
		hang_up(fd);
		return 0;
	}
	for (int i = 0; i < CLIENTS_MAX; i++) {
		if (clients[i].fd >= 0)
			continue;
		clients[i].fd = fd;
		clients[i].deadline_ms = now_ms() + CONTROL_TIMEOUT_S * 1000;
		clients[i].have = 0;
		clients[i].need = CONTROL_HEADER;
		return 0;
	}
	reply(fd, "error -12 busy: too many clients at once; try again\n");
	hang_up(fd);
	return 0;
}

/* How often the control thread looks for newly loaded objects. */
#define OBJECTS_POLL_MS 250

/*
 * Serves the socket, and between clients looks a few times a second for
 * objects the program has loaded (dlopen): described early, they keep
 * their names even if the program is killed, and the sampler's stack walk
 * accepts their code.
 */
static void *control_main(void *arg)
{
	struct client clients[CLIENTS_MAX];
	struct pollfd ready[1 + CLIENTS_MAX];
	uint64_t next_refresh = now_ms() + OBJECTS_POLL_MS;

	(void)arg;
	/* should a hook ever run here, it finds a thread that records nothing */
	trace_current()->status = THREAD_OFF;
	for (int i = 0; i < CLIENTS_MAX; i++)
		clients[i].fd = -1;
	for (;;) {
		uint64_t now = now_ms(), wake = next_refresh;
		int n = 1;
		ready[0] = (struct pollfd){ control.fd, POLLIN, 0 };
		for (int i = 0; i < CLIENTS_MAX; i++) {
			struct client *c = &clients[i];
			if (c->fd >= 0 && c->deadline_ms <= now) {
				close(c->fd);	/* stalled: dropped without an answer */
				c->fd = -1;
			}
			if (c->fd < 0)
				continue;
			ready[n++] = (struct pollfd){ c->fd, POLLIN, 0 };
			if (c->deadline_ms < wake)
				wake = c->deadline_ms;
		}
		int got = poll(ready, (nfds_t)n, wake > now ? (int)(wake - now) : 0);
		if (now_ms() >= next_refresh) {
			if (runtime_thread_alone())
				return NULL;	/* glibc's exit(0) follows */
			process_objects_refresh();
			next_refresh = now_ms() + OBJECTS_POLL_MS;
		}
		if (got <= 0)
			continue;
		if (ready[0].revents & POLLNVAL)
			return NULL;	/* the program closed our fd */
		for (int k = 1; k < n; k++) {
			if (!ready[k].revents)
				continue;
			for (int i = 0; i < CLIENTS_MAX; i++)
				if (clients[i].fd == ready[k].fd)
					client_read(&clients[i]);
		}
		/* a program that closed our fd may listen on its number now:
		 * its connections are not ours to take */
		if ((ready[0].revents & POLLIN) &&
		    (!rt_fd_is(control.fd, &control.fd_id) || client_accept(clients) < 0))
			return NULL;
	}
	return NULL;
}

/* At exit the socket goes; a forked child must not take its parent's. */
static void control_remove(void)
{
	if (control.path[0] && control.owner == getpid())
		unlink(control.path);
}

static void control_listen(void);

/* The session's start and the staging directory are taken here, before
 * main(), whenever the socket comes: its status reports when the
 * recording began, and a relative directory is the launcher's, which the
 * program may leave with chdir() before its first thread. */
void control_start(void)
{
	struct timespec now;

	struct clock_pair start = clock_pair_read(CONTRACT_CLOCK_TSC);
	control.tsc_start = start.clock;
	control.mono_start = start.mono_ns;
	clock_gettime(CLOCK_REALTIME, &now);
	control.unix_start_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	if (runtime_config.contract.dir[0] != '/') {
		char *s = control.staging, *send = s + sizeof(control.staging);
		if (!getcwd(s, sizeof(control.staging) - 1)) {
			rt_warn("no control socket; 'callscope live' cannot reach this process", NULL);
			return;
		}
		s = rt_append(s + strlen(s), send, "/");
		s = rt_append(s, send, runtime_config.contract.dir);
		if (!s) {
			rt_warn("no control socket; 'callscope live' cannot reach this process", NULL);
			return;
		}
	} else {
		memcpy(control.staging, runtime_config.contract.dir, sizeof(runtime_config.contract.dir));
	}
	if (runtime_config.contract.live == CONTRACT_LIVE_WHEN_THREADED) {
		__atomic_store_n(&control_stage, CONTROL_WAITING, __ATOMIC_RELEASE);
		return;
	}
	control_stage = CONTROL_LISTENING;
	control_listen();
}

void control_program_threaded(void)
{
	int expected = CONTROL_WAITING;

	if (!runtime_config.active ||
	    !__atomic_compare_exchange_n(&control_stage, &expected, CONTROL_LISTENING, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	control_listen();
}

/* The child of fork() has no control thread and must not hold its
 * parent's socket: it gets its own, same session and staging directory,
 * when SERVE says it may start a thread (not in a child of clone(), for
 * which libc has not made itself ready for threads as fork does) -- at
 * once with --live, else when it starts a thread of its own: it has one
 * thread, whatever its parent had. */
void control_after_fork(int serve)
{
	int had = control.fd >= 0;

	if (had) {
		rt_close_own(control.fd, &control.fd_id);
		control.fd = -1;
		control.path[0] = '\0';
	}
	/* where the parent's attempt failed, the child's would too */
	if (!serve || (control_stage == CONTROL_LISTENING && !had))
		control_stage = CONTROL_NONE;
	else if (control_stage == CONTROL_NONE)
		return;
	else if (runtime_config.contract.live == CONTRACT_LIVE_WHEN_THREADED)
		control_stage = CONTROL_WAITING;
	else
		control_listen();
}

static void control_listen(void)
{
	static int exit_hooked;
	struct sockaddr_un addr;
	char dir[sizeof(addr.sun_path)], tmp[sizeof(addr.sun_path)];
	char *end = dir + sizeof(dir);

	/* hooked first: a program thread may exit() while another makes
	 * the socket in its first pthread_create */
	if (!exit_hooked)
		atexit(control_remove);
	exit_hooked = 1;
	if (socket_dir(dir, end) != 0)
		goto fail;
	pid_t pid = getpid();
	char *p = rt_append(control.path, control.path + sizeof(control.path), dir);
	p = rt_append(p, control.path + sizeof(control.path), "/");
	p = rt_append_u64(p, control.path + sizeof(control.path), (uint64_t)pid);
	p = rt_append(p, control.path + sizeof(control.path), ".sock");
	char *q = rt_append(tmp, tmp + sizeof(tmp), dir);
	q = rt_append(q, tmp + sizeof(tmp), "/.tmp-");
	q = rt_append_u64(q, tmp + sizeof(tmp), (uint64_t)pid);
	if (!p || !q)
		goto fail;

	control.fd = rt_fd_above_limit(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	if (control.fd < 0)
		goto fail;
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	memcpy(addr.sun_path, tmp, strlen(tmp) + 1);
	unlink(tmp);
	control.owner = pid;
	if (bind(control.fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    chmod(tmp, 0600) != 0 || listen(control.fd, 8) != 0 ||
	    rename(tmp, control.path) != 0) {
		unlink(tmp);
		goto fail;
	}
	rt_file_id_of(control.fd, &control.fd_id);
	runtime_thread_alone_prepare();

	if (runtime_thread_spawn(control_main, NULL) != 0) {
		unlink(control.path);
		goto fail;
	}
	return;
fail:
	if (control.fd >= 0)
		close(control.fd);
	control.fd = -1;
	control.path[0] = '\0';
	rt_warn("no control socket; 'callscope live' cannot reach this process", NULL);
}
