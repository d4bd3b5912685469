#include "cli/seal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "die.h"
#include "formats/cursor.h"
#include "formats/native.h"
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
		void *p = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
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
	sec_put_u32(&b, 0);
	sec_put_blob(&b, s->cwd, strlen(s->cwd));
	sec_put_u32(&b, (uint32_t)s->argc);
	for (int i = 0; i < s->argc; i++)
		sec_put_blob(&b, s->argv[i], strlen(s->argv[i]));
	if (b.overflow)
		BUG("session section larger than computed");
	int rc = data_write_section(out, SECTION_SESSION, buf, (size_t)(b.p - buf));
	free(buf);
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
		if (type == SECTION_PROCESS)
			res->processes++;
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

static int copy_thread_file(FILE *out, const struct mapped *m, const char *name,
			    struct seal_result *res)
{
	const struct thread_file_header *h = (const void *)m->bytes;
	uint8_t head[48];
	struct sec_builder b = { head, head + sizeof(head), 0 };
	struct stream_span span = { { NULL, NULL }, { 0, 0 } };

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
	sec_put_u32(&b, h->pid);
	sec_put_u32(&b, h->image);
	sec_put_u32(&b, h->tid);
	sec_put_u32(&b, h->flags);
	sec_put_u32(&b, h->clock);
	sec_put_u32(&b, h->counter_info);
	sec_put_u64(&b, h->start_time);
	sec_put_u64(&b, h->lost_events);
	sec_put_u64(&b, h->events_written);
	res->threads++;
	res->lost_events += h->lost_events;

	const struct data_part parts[3] = {
		{ head, (size_t)(b.p - head) },
		{ span.part[0], span.len[0] },
		{ span.part[1], span.len[1] },
	};
	return data_write_section_parts(out, SECTION_THREAD, parts, 3);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns the sorted names in DIR starting with PREFIX; caller frees. */
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
	qsort(names, *n, sizeof(*names), by_name);
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

int seal_staging(const char *staging_dir, const char *out_path,
		 const struct seal_session *s, struct seal_result *res)
{
	char *tmp = xasprintf("%s.tmp-XXXXXX", out_path);
	int fd = mkstemp(tmp);
	FILE *out;
	size_t nproc, nthread;
	char **procs, **threads;
	struct data_file seen;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	memset(&seen, 0, sizeof(seen));
	if (fd < 0) {
		error("cannot write '%s': %s", out_path, strerror(errno));
		free(tmp);
		return -1;
	}
	out = fdopen(fd, "w");
	if (!out)
		die("cannot write '%s': %s", tmp, strerror(errno));
	procs = list_files(staging_dir, "p-", &nproc);
	threads = list_files(staging_dir, "t-", &nthread);

	if (data_write_header(out) || write_session(out, s))
		goto io_error;
	for (size_t i = 0; i < nproc; i++) {
		char *path = xasprintf("%s/%s", staging_dir, procs[i]);
		struct mapped m;
		int failed = 0;
		if (map_file(path, &m) == 0) {
			failed = copy_process_file(out, &m, &seen, res);
			unmap_file(&m);
		}
		free(path);
		if (failed)
			goto io_error;
	}
	for (size_t i = 0; i < nthread; i++) {
		char *path = xasprintf("%s/%s", staging_dir, threads[i]);
		struct mapped m;
		int failed = 0;
		if (map_file(path, &m) == 0) {
			failed = copy_thread_file(out, &m, threads[i], res);
			unmap_file(&m);
		}
		free(path);
		if (failed)
			goto io_error;
	}
	if (data_write_end(out) || fflush(out) != 0 || ferror(out))
		goto io_error;
	res->bytes = (uint64_t)ftell(out);
	if (fclose(out) != 0) {
		out = NULL;
		goto io_error;
	}
	out = NULL;
	keep_earlier(out_path);
	if (rename(tmp, out_path) != 0) {
		error("cannot write '%s': %s; the recording stays in '%s'", out_path,
		      strerror(errno), staging_dir);
		unlink(tmp);
		goto done;
	}
	rc = 0;
	goto done;
io_error:
	error("cannot write '%s': %s; the recording stays in '%s'", out_path,
	      strerror(errno), staging_dir);
	if (out)
		fclose(out);
	unlink(tmp);
done:
	data_file_release(&seen);
	free_list(procs, nproc);
	free_list(threads, nthread);
	free(tmp);
	return rc;
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
