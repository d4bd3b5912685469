#include "formats/seal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "die.h"
#include "formats/call_memo.h"
#include "formats/cursor.h"
#include "formats/native.h"
#include "formats/native_checksum.h"
#include "outfile.h"
#include "readfile.h"
#include "sections.h"
#include "xalloc.h"

struct mapped {
	uint8_t *bytes;
	size_t size;
};

static int map_file(const char *path, struct mapped *m)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	m->bytes = NULL;
	m->size = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	m->size = (size_t)st.st_size;
	if (m->size) {
		/* private: a thread file's call memo is settled in the copy
		 * (copy_thread_file()) */
		void *p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return -1;
		}
		m->bytes = p;
	}
	close(fd);
	return 0;
}

static void unmap_file(struct mapped *m)
{
	if (m->bytes)
		munmap(m->bytes, m->size);
}

static int write_session(FILE *out, const struct seal_session *s)
{
	size_t cap = 256 + strlen(s->cwd);
	for (int i = 0; i < s->argc; i++)
		cap += 4 + strlen(s->argv[i]);
	uint8_t *buf = xmalloc(cap);
	struct sec_builder b = { buf, buf + cap, 0 };

	sec_put_u64(&b, s->tsc_start);
	sec_put_u64(&b, s->mono_start);
	sec_put_u64(&b, s->tsc_end);
	sec_put_u64(&b, s->mono_end);
	sec_put_u64(&b, s->unix_start_ns);
	sec_put_u32(&b, s->mode);
	sec_put_u32(&b, s->clock);
	sec_put_u32(&b, (uint32_t)s->wait_status);
	sec_put_u32(&b, s->flags);
	sec_put_blob(&b, s->cwd, strlen(s->cwd));
	sec_put_u32(&b, (uint32_t)s->argc);
	for (int i = 0; i < s->argc; i++)
		sec_put_blob(&b, s->argv[i], strlen(s->argv[i]));
	if (b.overflow)
		BUG("session section larger than computed");
	int rc = data_write_section(out, SECTION_SESSION, buf, (size_t)(b.p - buf));
	free(buf);
	if (!rc && s->patch_coverage)
		rc = data_write_section(out, SECTION_PATCH, s->patch_coverage,
					s->patch_coverage_len);
	if (rc || !s->ncounters)
		return rc;

	uint8_t counters[2 * (16 + 4 + 64) + 4];
	struct sec_builder cb = { counters, counters + sizeof(counters), 0 };
	sec_put_u32(&cb, s->ncounters);
	for (uint32_t i = 0; i < s->ncounters; i++) {
		sec_put_u32(&cb, s->counter_types[i]);
		sec_put_u32(&cb, 0);
		sec_put_u64(&cb, s->counter_configs[i]);
		sec_put_blob(&cb, s->counter_names[i], strlen(s->counter_names[i]));
	}
	if (cb.overflow)
		BUG("counter names too long");
	return data_write_section(out, SECTION_COUNTERS, counters, (size_t)(cb.p - counters));
}

/*
 * Copies the whole, valid sections of one process file.  Each section is
 * checked with the reader before it is copied, so the sealed file never
 * holds one the reader would reject.
 */
static int copy_process_file(FILE *out, const struct mapped *m, struct data_file *seen,
			     struct seal_result *res)
{
	struct cursor c;
	char err[256];

	cursor_init(&c, m->bytes, m->bytes, m->bytes + m->size);
	while (cursor_left(&c)) {
		const uint8_t *start = c.p;
		uint32_t type = cursor_u32(&c, "header");
		cursor_u32(&c, "header");
		uint64_t len = cursor_u64(&c, "header");
		if (c.failed || len > cursor_left(&c)) {
			res->dropped_sections++;
			break;
		}
		size_t whole = SECTION_HEADER_SIZE + (size_t)len;
		if (data_sections_parse(start, whole, 0, seen, err, sizeof(err)) != 0) {
			warning("dropping a damaged section of the recording: %s", err);
			res->dropped_sections++;
			break;
		}
		if (type == SECTION_PROCESS) {	/* parsed into SEEN just now */
			res->images++;
			res->processes += data_process_is_first_image(seen, seen->nprocesses - 1);
		}
		if (fwrite(start, 1, whole, out) != whole)
			return -1;
		c.p = start + whole;
	}
	return 0;
}

/* Where the stream's bytes are: one range, or two for a wrapped ring. */
struct stream_span {
	const uint8_t *part[2];
	size_t len[2];
};

/*
 * A flight recorder ring holds stream offsets [head - ring, head).  The
 * decodable part starts at the oldest SYNC record still whole in it; the
 * header lists where the recent ones are.
 */
static int ring_span(const struct mapped *m, const struct thread_file_header *h,
		     struct stream_span *span)
{
	uint64_t ring = h->ring_bytes;
	uint64_t head = h->committed_end - THREAD_FILE_DATA_OFFSET;

	if (!ring || ring > m->size - THREAD_FILE_DATA_OFFSET || h->committed_end < THREAD_FILE_DATA_OFFSET)
		return -1;
	uint64_t lowest = head > ring ? head - ring : 0;
	uint64_t start = UINT64_MAX;
	uint32_t n = h->nsync < RING_SYNC_SLOTS ? h->nsync : RING_SYNC_SLOTS;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t pos = h->sync_pos[i];
		if (pos >= lowest && pos < head && pos < start)
			start = pos;
	}
	if (start == UINT64_MAX)
		return 0;	/* nothing decodable: the span stays empty */
	const uint8_t *base = m->bytes + THREAD_FILE_DATA_OFFSET;
	uint64_t first = start % ring, len = head - start;
	span->part[0] = base + first;
	span->len[0] = (size_t)(len < ring - first ? len : ring - first);
	span->part[1] = base;
	span->len[1] = (size_t)(len - span->len[0]);
	return 0;
}

/* The THREAD section's fields before the stream, from the staging
 * header H, counted into RES. */
#define THREAD_HEAD_SIZE 48
static void thread_head(const struct thread_file_header *h, uint8_t head[THREAD_HEAD_SIZE],
			struct seal_result *res)
{
	struct sec_builder b = { head, head + THREAD_HEAD_SIZE, 0 };

	sec_put_u32(&b, h->pid);
	sec_put_u32(&b, h->image);
	sec_put_u32(&b, h->tid);
	sec_put_u32(&b, h->flags);
	sec_put_u32(&b, h->clock);
	sec_put_u32(&b, h->counter_info);
	sec_put_u64(&b, h->start_time);
	sec_put_u64(&b, h->lost_events);
	sec_put_u64(&b, h->events_written);
	if (b.overflow || b.p != head + THREAD_HEAD_SIZE)
		BUG("thread head size");
	res->threads += h->image == 0 || h->tid != h->pid;
	res->lost_events += h->lost_events;
}

/*
 * Whether M is a thread file its thread never began to write: the
 * process ended (exit() racing a thread's start, a kill) after the file
 * was made and before its header was, so it holds nothing, and nothing
 * of the thread was recorded to lose.
 */
static int thread_file_never_begun(const struct mapped *m)
{
	static const uint8_t none[8];

	return m->size < sizeof(none) || !memcmp(m->bytes, none, sizeof(none));
}

/*
 * After a thread's THREAD section, what its clock left out (H->paused),
 * when anything was and its calls are a stream: a reader closing calls
 * still open at the process's end, a reading of the real clock, takes it
 * off that end.  A count-mode thread keeps it in its root record.
 */
static int write_thread_paused(FILE *out, const struct thread_file_header *h)
{
	uint8_t payload[THREAD_PAUSED_SIZE];
	struct sec_builder b = { payload, payload + sizeof(payload), 0 };

	if (!h->paused || (h->flags & THREAD_CCT))
		return 0;
	sec_put_u32(&b, h->pid);
	sec_put_u32(&b, h->image);
	sec_put_u32(&b, h->tid);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, h->paused);
	if (b.overflow || b.p != payload + sizeof(payload))
		BUG("thread pause size");
	return data_write_section(out, SECTION_THREAD_PAUSED, payload, sizeof(payload));
}

static int copy_thread_file(FILE *out, const struct mapped *m, const char *name,
			    struct seal_result *res)
{
	const struct thread_file_header *h = (const void *)m->bytes;
	uint8_t head[THREAD_HEAD_SIZE];
	struct stream_span span = { { NULL, NULL }, { 0, 0 } };

	if (thread_file_never_begun(m))
		return 0;
	if (m->size < THREAD_FILE_DATA_OFFSET || memcmp(h->magic, THREAD_FILE_MAGIC, 8) ||
	    h->version != THREAD_FILE_VERSION) {
		warning("ignoring '%s' in the staging directory: not a thread buffer", name);
		return 0;
	}
	if (h->flags & THREAD_RING) {
		if (ring_span(m, h, &span) != 0)
			warning("flight recorder ring '%s' has a bad header; its events are lost", name);
	} else {
		uint64_t end = h->committed_end;
		if (end < THREAD_FILE_DATA_OFFSET || end > m->size) {
			warning("thread buffer '%s' has a bad commit point; its events are lost", name);
			end = THREAD_FILE_DATA_OFFSET;
		}
		span.part[0] = m->bytes + THREAD_FILE_DATA_OFFSET;
		span.len[0] = (size_t)(end - THREAD_FILE_DATA_OFFSET);
	}
	/* a process still running (one that outlived record) has its
	 * latest counts there; a finished one's were settled in the file */
	call_memo_settle(m->bytes, m->size);
	thread_head(h, head, res);

	const struct data_part parts[3] = {
		{ head, THREAD_HEAD_SIZE },
		{ span.part[0], span.len[0] },
		{ span.part[1], span.len[1] },
	};
	return data_write_section_parts(out, SECTION_THREAD, parts, 3) ||
	       write_thread_paused(out, h);
}

/*
 * Gives back the space reserved past a thread's committed data, so that
 * sealing on a nearly full disk needs room for the data once more, not
 * for every buffer's whole reserve.  Only once the thread's process is
 * gone: a live one would fault (SIGBUS) on its next write into the part
 * cut off.  A ring is whole; it is left as it is.
 */
/*
 * Whether H is the header of a whole-stream thread file (not a ring)
 * whose process is gone, so that nothing writes into it any more.
 */
static int thread_file_finished(const struct thread_file_header *h)
{
	return !memcmp(h->magic, THREAD_FILE_MAGIC, 8) && h->version == THREAD_FILE_VERSION &&
	       !(h->flags & THREAD_RING) && h->committed_end >= THREAD_FILE_DATA_OFFSET &&
	       kill((pid_t)h->pid, 0) != 0 && errno == ESRCH;
}

/* The counts of the call memo of a finished count-mode thread, written
 * into the file FD (header H) itself, before the memo past the nodes is
 * cut off: the in-place seal copies nothing. */
static void settle_in_file(int fd, const struct thread_file_header *h)
{
	struct stat st;

	if (!(h->flags & THREAD_CCT) || !h->call_memo_entries || fstat(fd, &st) != 0)
		return;
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		warning("cannot add the last calls counted to the call paths of a thread: %s",
			strerror(errno));
		return;
	}
	call_memo_settle(p, (size_t)st.st_size);
	munmap(p, (size_t)st.st_size);
}

static void trim_thread_file(const char *path)
{
	struct thread_file_header h;
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return;
	if (pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) && thread_file_finished(&h)) {
		struct stat st;
		settle_in_file(fd, &h);
		if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > h.committed_end &&
		    ftruncate(fd, (off_t)h.committed_end) != 0)
			warning("cannot give back the unused space of '%s': %s", path,
				strerror(errno));
	}
	close(fd);
}

/* The numbers of a staging file's name after its two-letter prefix
 * ("p-PID-N.sec", "t-PID-IMAGE-TID-N.buf"), at most MAX: how many. */
static size_t name_numbers(const char *name, unsigned long long *v, size_t max)
{
	const char *p = name + 2;
	size_t n = 0;

	while (n < max && *p >= '0' && *p <= '9') {
		char *end;
		v[n++] = strtoull(p, &end, 10);
		if (*end != '-')
			break;
		p = end + 1;
	}
	return n;
}

/*
 * Staging files in the order of the run: by process id and image as
 * numbers (as text, a thread 10000 came before its process's main thread
 * 9999, and readers take the first thread of a process for its main
 * one), each process's main thread (its tid is the pid) before its other
 * threads, which follow by tid.  Names of another form keep text order.
 */
static int by_run_order(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	unsigned long long u[4], v[4];
	size_t n = name_numbers(x, u, 4);

	if (strncmp(x, y, 2) || name_numbers(y, v, 4) != n)
		return strcmp(x, y);
	for (size_t i = 0; i < n; i++) {
		if (n == 4 && i == 2 && (u[2] == u[0]) != (v[2] == v[0]))
			return u[2] == u[0] ? -1 : 1;
		if (u[i] != v[i])
			return u[i] < v[i] ? -1 : 1;
	}
	return strcmp(x, y);
}

/* Returns the names in DIR starting with PREFIX, in run order; caller
 * frees. */
static char **list_files(const char *dir, const char *prefix, size_t *n)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t alloc = 0;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		ALLOC_GROW(names, *n + 1, alloc);
		names[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)	/* none found: no array */
		qsort(names, *n, sizeof(*names), by_run_order);
	return names;
}

static void free_list(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * An earlier recording at OUT_PATH becomes OUT_PATH.old (as perf.data
 * becomes perf.data.old), so running record twice does not silently lose
 * the first run.  A file already called .old is replaced.
 */
static void keep_earlier(const char *out_path)
{
	struct stat st;
	char *old;

	if (lstat(out_path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	old = xasprintf("%s.old", out_path);
	if (rename(out_path, old) != 0)
		warning("cannot keep the earlier '%s' as '%s': %s; it is replaced", out_path,
			old, strerror(errno));
	free(old);
}

void seal_drop_older(const char *out_path)
{
	struct stat st;
	char *old;

	if (lstat(out_path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	old = xasprintf("%s.old", out_path);
	if (lstat(old, &st) == 0 && S_ISREG(st.st_mode))
		unlink(old);
	free(old);
}

#define SESSION_FILE "session"

/*
 * Keeps the session in the staging directory when sealing failed, so that
 * reading the directory later (seal_to_memory) gives the run's clocks,
 * command line and exit status, not stand-ins.
 */
static void save_session(const char *staging_dir, const struct seal_session *s)
{
	char *path = xasprintf("%s/" SESSION_FILE, staging_dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int saved = f && write_session(f, s) == 0;

	if (f)
		saved = fclose(f) == 0 && saved;
	else if (fd >= 0)
		close(fd);
	if (!saved)
		unlink(path);
	free(path);
}

/*
 * The session of a staging directory read as it is: the one saved there,
 * or, when record could not save it (or never got to), a stand-in with
 * the clock of the threads' buffers and the mode their flags tell; its
 * start is clock 0, so times are the clock's own.
 */
static int copy_session(FILE *out, const char *staging_dir, char **threads, size_t nthread,
			struct data_file *seen, struct seal_result *res)
{
	char *path = xasprintf("%s/" SESSION_FILE, staging_dir);
	struct mapped m;
	int rc;

	if (map_file(path, &m) == 0 && m.size) {
		rc = copy_process_file(out, &m, seen, res);
		unmap_file(&m);
		free(path);
		return rc;
	}
	free(path);
	struct seal_session s;
	memset(&s, 0, sizeof(s));
	s.mode = DATA_MODE_TRACE;
	s.cwd = "";
	for (size_t i = 0; i < nthread; i++) {
		char *tpath = xasprintf("%s/%s", staging_dir, threads[i]);
		if (map_file(tpath, &m) == 0 && m.size >= sizeof(struct thread_file_header)) {
			const struct thread_file_header *h = (const void *)m.bytes;
			s.clock = h->clock;
			s.mode = h->flags & THREAD_CCT ? DATA_MODE_COUNT
				 : h->flags & THREAD_RING ? DATA_MODE_FLIGHT : DATA_MODE_TRACE;
		}
		unmap_file(&m);
		free(tpath);
	}
	return write_session(out, &s);
}

/* The staging files, each kind in run order. */
struct staging_files {
	char **procs, **threads;
	size_t nproc, nthread;
};

static void staging_list(const char *staging_dir, struct staging_files *f)
{
	f->procs = list_files(staging_dir, "p-", &f->nproc);
	f->threads = list_files(staging_dir, "t-", &f->nthread);
}

static void staging_release(struct staging_files *f)
{
	free_list(f->procs, f->nproc);
	free_list(f->threads, f->nthread);
}

/*
 * Writes to OUT the sections that describe the run: the session (S NULL:
 * the saved one), then the processes' sections.  Returns 0, or -1 with
 * errno set by the failed write.
 */
static int seal_front(FILE *out, const char *staging_dir, const struct staging_files *f,
		      const struct seal_session *s, struct seal_result *res)
{
	struct data_file seen;
	int rc = -1;

	memset(&seen, 0, sizeof(seen));
	if (s ? write_session(out, s)
	      : copy_session(out, staging_dir, f->threads, f->nthread, &seen, res))
		goto done;
	for (size_t i = 0; i < f->nproc; i++) {
		char *path = xasprintf("%s/%s", staging_dir, f->procs[i]);
		struct mapped m;
		int failed = 0;
		if (map_file(path, &m) == 0) {
			failed = copy_process_file(out, &m, &seen, res);
			unmap_file(&m);
		}
		free(path);
		if (failed)
			goto done;
	}
	rc = 0;
done:
	data_file_release(&seen);
	return rc;
}

/* Writes to OUT the THREAD section of every thread file but the one
 * numbered SKIP (SIZE_MAX: none).  0, or -1 with errno set. */
static int seal_threads(FILE *out, const char *staging_dir, const struct staging_files *f,
			size_t skip, struct seal_result *res)
{
	for (size_t i = 0; i < f->nthread; i++) {
		if (i == skip)
			continue;
		char *path = xasprintf("%s/%s", staging_dir, f->threads[i]);
		struct mapped m;
		int failed = 0;
		if (map_file(path, &m) == 0) {
			failed = copy_thread_file(out, &m, f->threads[i], res);
			unmap_file(&m);
		}
		free(path);
		if (failed)
			return -1;
	}
	return 0;
}

/* Writes the data file of STAGING_DIR to OUT; S NULL: the saved session.
 * Returns 0, or -1 with errno set by the failed write. */
static int seal_write(FILE *out, const char *staging_dir, const struct seal_session *s,
		      struct seal_result *res)
{
	struct staging_files f;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	staging_list(staging_dir, &f);
	if (data_write_header(out) || seal_front(out, staging_dir, &f, s, res) ||
	    seal_threads(out, staging_dir, &f, SIZE_MAX, res) || data_write_end(out) ||
	    fflush(out) != 0 || ferror(out))
		goto done;
	res->bytes = (uint64_t)ftell(out);
	rc = 0;
done:
	staging_release(&f);
	return rc;
}

/*
 * Sealing in place: the first thread file becomes the data file, so its
 * stream, usually nearly all of the recording, is neither copied nor
 * deleted.  Its 4096-byte staging header is replaced by a page that holds
 * the file header, the session and process sections when they fit (else
 * they follow the stream), a PAD section filling the rest, and the head of
 * the THREAD section that runs over the stream where it lies; the other
 * threads' sections and END follow the stream.  The order keeps the
 * staging directory readable at every instant: sections are appended past
 * the committed stream, which the staging header does not cover, and the
 * page is written last, in one write, turning the whole file into a data
 * file at once; only then is it renamed into place.  A staging directory
 * whose first thread file is a data file already is read as that file
 * (seal_to_memory).
 */
enum in_place { IN_PLACE_SEALED, IN_PLACE_FAILED, IN_PLACE_NOT_HERE };

/* The file's layout around the first thread's stream. */
struct in_place_layout {
	uint8_t page[THREAD_FILE_DATA_OFFSET];	/* replaces the staging header */
	const char *after;	/* the front sections when they did not fit */
	size_t after_len;
};

/* Room in the page between the file header and the THREAD section's own
 * header and head: for the front sections and a PAD section. */
#define PAGE_ROOM (THREAD_FILE_DATA_OFFSET - DATA_HEADER_SIZE - SECTION_HEADER_SIZE - \
		   THREAD_HEAD_SIZE)

/* Lays out L for the staging header H, whose stream is STREAM_LEN bytes,
 * and the FRONT sections (FRONT_LEN bytes). */
static void in_place_layout(struct in_place_layout *l, const struct thread_file_header *h,
			    uint64_t stream_len, const char *front, size_t front_len,
			    struct seal_result *res)
{
	uint8_t *p = l->page;
	int fits = front_len == PAGE_ROOM || front_len + SECTION_HEADER_SIZE <= PAGE_ROOM;

	memset(l->page, 0, sizeof(l->page));
	data_header_build(p);
	p += DATA_HEADER_SIZE;
	l->after = fits ? NULL : front;
	l->after_len = fits ? 0 : front_len;
	if (fits) {
		memcpy(p, front, front_len);
		p += front_len;
	}
	size_t pad = PAGE_ROOM - (size_t)(p - l->page - DATA_HEADER_SIZE);
	if (pad) {
		section_header_build(p, SECTION_PAD, pad - SECTION_HEADER_SIZE);
		p += pad;
	}
	section_header_build(p, SECTION_THREAD, THREAD_HEAD_SIZE + stream_len);
	p += SECTION_HEADER_SIZE;
	thread_head(h, p, res);
}

/* The checksum of the file of descriptor FD, SIZE bytes, with its first
 * page read as PAGE; -1 when it cannot be read back. */
static int in_place_checksum(int fd, uint64_t size, const uint8_t *page,
			     struct data_checksum *c)
{
	void *bytes = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);

	if (bytes == MAP_FAILED)
		return -1;
	*c = data_checksum(page, THREAD_FILE_DATA_OFFSET);
	*c = data_checksum_more(*c, (const uint8_t *)bytes + THREAD_FILE_DATA_OFFSET,
				(size_t)size - THREAD_FILE_DATA_OFFSET);
	munmap(bytes, (size_t)size);
	return 0;
}

/* Appends to FD, at END, what follows the first thread's stream (whose
 * staging header is FIRST) in L's layout, END last; *SIZE the file's size
 * then.  0, or -1 with errno. */
static int in_place_tail(int fd, uint64_t end, const char *staging_dir,
			 const struct staging_files *f, const struct thread_file_header *first,
			 const struct in_place_layout *l, struct seal_result *res, uint64_t *size)
{
	int dup_fd = dup(fd);
	FILE *out = dup_fd >= 0 ? fdopen(dup_fd, "w") : NULL;
	struct data_checksum c;
	int rc = -1;

	if (!out) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	if (fseeko(out, (off_t)end, SEEK_SET) == 0 &&
	    write_thread_paused(out, first) == 0 &&
	    (!l->after_len || fwrite(l->after, 1, l->after_len, out) == l->after_len) &&
	    seal_threads(out, staging_dir, f, 0, res) == 0 && fflush(out) == 0) {
		uint64_t at = (uint64_t)ftello(out);
		int summed = in_place_checksum(fd, at, l->page, &c) == 0;
		if (data_write_end_summed(out, summed ? &c : NULL) == 0 && fflush(out) == 0 &&
		    !ferror(out)) {
			*size = (uint64_t)ftello(out);
			rc = 0;
		}
	}
	int saved = errno;
	if (fclose(out) != 0 && rc == 0) {
		saved = errno;
		rc = -1;
	}
	errno = saved;
	return rc;
}

/* The front sections of the data file, in memory: 0 with *FRONT a
 * malloc'd buffer, or -1. */
static int front_in_memory(const char *staging_dir, const struct staging_files *f,
			   const struct seal_session *s, struct seal_result *res,
			   char **front, size_t *len)
{
	FILE *mem = open_memstream(front, len);

	if (!mem)
		return -1;
	int failed = seal_front(mem, staging_dir, f, s, res) != 0;
	if (fclose(mem) != 0 || failed) {
		free(*front);
		*front = NULL;
		return -1;
	}
	return 0;
}

/* Whether OUT_PATH's directory is on STAGING_DIR's file system. */
static int same_file_system(const char *staging_dir, const char *out_path)
{
	char *copy = xstrdup(out_path);
	struct stat a, b;
	int same = stat(staging_dir, &a) == 0 && stat(dirname(copy), &b) == 0 &&
		   a.st_dev == b.st_dev;

	free(copy);
	return same;
}

static enum in_place seal_in_place(const char *staging_dir, const char *out_path,
				   const struct seal_session *s, struct seal_result *res)
{
	struct staging_files f;
	struct stat st;
	enum in_place rc = IN_PLACE_NOT_HERE;
	uint8_t old[THREAD_FILE_DATA_OFFSET];
	struct in_place_layout *l = NULL;
	struct thread_file_header h;
	char *path = NULL, *front = NULL;
	size_t front_len = 0;
	int fd = -1;

	memset(res, 0, sizeof(*res));
	/* a rename onto anything but a regular file is refused as the copying
	 * seal refuses it, with its message; and a file cannot be renamed
	 * onto another file system (live snapshot -o elsewhere) */
	if ((stat(out_path, &st) == 0 && !S_ISREG(st.st_mode)) ||
	    !same_file_system(staging_dir, out_path))
		return IN_PLACE_NOT_HERE;
	staging_list(staging_dir, &f);
	if (!f.nthread)
		goto done;
	path = xasprintf("%s/%s", staging_dir, f.threads[0]);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || pread(fd, old, sizeof(old), 0) != (ssize_t)sizeof(old) ||
	    fstat(fd, &st) != 0)
		goto done;
	memcpy(&h, old, sizeof(h));
	/* trimmed already (thread_files_trim): the stream ends the file */
	if (!thread_file_finished(&h) || (uint64_t)st.st_size != h.committed_end)
		goto done;

	rc = IN_PLACE_FAILED;
	if (front_in_memory(staging_dir, &f, s, res, &front, &front_len) != 0)
		goto done;
	uint64_t size = 0;
	l = xmalloc(sizeof(*l));
	in_place_layout(l, &h, h.committed_end - THREAD_FILE_DATA_OFFSET, front, front_len, res);
	int tail_failed = in_place_tail(fd, h.committed_end, staging_dir, &f, &h, l, res, &size) != 0;
	if (tail_failed || pwrite(fd, l->page, sizeof(l->page), 0) != (ssize_t)sizeof(l->page)) {
		int saved = errno;
		/* the staging file as it was: its header, its stream alone */
		if ((!tail_failed && pwrite(fd, old, sizeof(old), 0) != (ssize_t)sizeof(old)) ||
		    ftruncate(fd, (off_t)h.committed_end) != 0)
			warning("cannot restore '%s' after a failed seal: %s", path,
				strerror(errno));
		errno = saved;
		goto done;
	}
	res->bytes = size;
	keep_earlier(out_path);
	if (rename(path, out_path) == 0)
		rc = IN_PLACE_SEALED;
done:
	if (fd >= 0)
		close(fd);
	free(l);
	free(front);
	free(path);
	staging_release(&f);
	return rc;
}

static void thread_files_trim(const char *staging_dir)
{
	size_t n;
	char **threads = list_files(staging_dir, "t-", &n);

	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", staging_dir, threads[i]);
		trim_thread_file(path);
		free(path);
	}
	free_list(threads, n);
}

int seal_staging(const char *staging_dir, const char *out_path,
		 const struct seal_session *s, struct seal_result *res)
{
	struct outfile out;

	memset(res, 0, sizeof(*res));
	thread_files_trim(staging_dir);
	enum in_place in_place = seal_in_place(staging_dir, out_path, s, res);
	if (in_place == IN_PLACE_SEALED)
		return 0;
	int saved = errno;
	if (in_place == IN_PLACE_NOT_HERE) {
		if (outfile_open(&out, out_path, 0) != 0)
			return -1;
		int failed = seal_write(out.f, staging_dir, s, res) != 0 ||
			     outfile_close(&out) != 0;
		saved = errno;
		if (!failed) {
			keep_earlier(out_path);
			if (outfile_commit_quiet(&out) == 0)
				return 0;
			saved = errno;
		} else {
			outfile_abort(&out);
		}
	}
	save_session(staging_dir, s);
	return error("cannot write '%s': %s; the recording stays in '%s': read it there "
		     "(callscope info -i %s) or write it where there is room "
		     "(callscope merge --keep-events -o PATH %s)", out_path, strerror(saved), staging_dir,
		     staging_dir, staging_dir);
}

int seal_is_staging(const char *dir)
{
	size_t np, nt;
	char **procs = list_files(dir, "p-", &np);
	char **threads = list_files(dir, "t-", &nt);

	free_list(procs, np);
	free_list(threads, nt);
	return np + nt > 0;
}

/* The first thread file of STAGING_DIR when a seal in place made it the
 * data file but could not rename it: a malloc'd path, or NULL. */
static char *sealed_in_place(const char *staging_dir)
{
	struct staging_files f;
	char magic[DATA_MAGIC_LEN], *path = NULL;

	staging_list(staging_dir, &f);
	if (f.nthread) {
		path = xasprintf("%s/%s", staging_dir, f.threads[0]);
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		int sealed = fd >= 0 && pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
			     !memcmp(magic, DATA_MAGIC, DATA_MAGIC_LEN);
		if (fd >= 0)
			close(fd);
		if (!sealed) {
			free(path);
			path = NULL;
		}
	}
	staging_release(&f);
	return path;
}

int seal_to_memory(const char *staging_dir, uint8_t **bytes, size_t *size)
{
	char *buf = NULL;
	size_t len = 0;
	char *sealed = sealed_in_place(staging_dir);
	struct seal_result res;

	if (sealed) {
		int rc = read_file(sealed, 0, &buf, &len);
		free(sealed);
		*bytes = (uint8_t *)buf;
		*size = len;
		return rc;
	}
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		return -1;
	int failed = seal_write(out, staging_dir, NULL, &res);
	if (fclose(out) != 0 || failed) {
		free(buf);
		return -1;
	}
	*bytes = (uint8_t *)buf;
	*size = len;
	return 0;
}

void seal_remove_staging(const char *staging_dir)
{
	DIR *d = opendir(staging_dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *path = xasprintf("%s/%s", staging_dir, e->d_name);
		unlink(path);
		free(path);
	}
	closedir(d);
	rmdir(staging_dir);
}
