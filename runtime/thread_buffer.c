/*
 * A thread's staging file: a header page, then the event stream, written
 * through a shared mapping of one chunk at a time.  The pages belong to the
 * kernel's page cache, so whatever was committed survives the program
 * crashing or being killed with SIGKILL.  Space is reserved with
 * posix_fallocate before a chunk is mapped, so a full disk ends recording
 * for the thread (counted as lost events) rather than raising SIGBUS; and
 * never past the program's file size limit, which would raise SIGXFSZ.
 * On a nearly full disk, room stays free for the launcher to seal what was
 * recorded (a copy of it) and for the header pages of threads still to
 * come; windows of the smallest chunk share what is left among the
 * threads, and a thread that finds no room for a window keeps its header
 * page, where its lost events are counted.
 */
#include "runtime.h"
#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Room kept free on the disk for later threads' header pages. */
#define HEADER_MARGIN (16 * THREAD_FILE_DATA_OFFSET)

/* What this process reserved in the staging directory: sealing copies up
 * to as much again. */
static uint64_t reserved_bytes;

/* posix_fallocate() returns its error instead of setting errno. */
static int reserve(int fd, uint64_t off, uint64_t len)
{
	int rc = posix_fallocate(fd, (off_t)off, (off_t)len);

	if (rc != 0)
		errno = rc;
	else
		__atomic_add_fetch(&reserved_bytes, len, __ATOMIC_RELAXED);
	return rc ? -1 : 0;
}

/* One page of zeros, written over and over by thread_buffer_fill(): 1 MiB
 * a call from a page the CPU's cache already holds. */
static const uint8_t zero_page[4096] __attribute__((aligned(4096)));
static const struct iovec zero_pages[256] = {
	[0 ... 255] = { (void *)zero_page, sizeof(zero_page) },
};

/*
 * Writing zeros over a new window puts it into the page cache, so that
 * populating its mapping only maps pages that exist.  Populating reserved
 * (unwritten) blocks directly reads each 4 KiB page in, zeroes it and
 * prepares it for writing one at a time; a write fills the cache with
 * large folios at once: on ext4, 0.9-1.6 us a page in all against
 * 2.6-3.9, and a traced call 3 ns cheaper on the Lua benchmark
 * (bench/RESULTS.md).  Only a shortcut: when a write fails, the
 * population faults the pages in as before.
 */
void thread_buffer_fill(int fd, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	while (off + sizeof(zero_page) <= end) {
		uint64_t pages = (end - off) / sizeof(zero_page);
		ssize_t w = pwritev(fd, zero_pages, pages < 256 ? (int)pages : 256, (off_t)off);

		if (w <= 0 && !(w < 0 && errno == EINTR))
			return;
		if (w > 0)
			off += (uint64_t)w;
	}
}

/* Whether a window of LEN leaves the disk room to seal, and the margin. */
static int window_fits(int fd, uint64_t len)
{
	struct statvfs fs;

	if (fstatvfs(fd, &fs) != 0)
		return 1;
	uint64_t keep = __atomic_load_n(&reserved_bytes, __ATOMIC_RELAXED) + HEADER_MARGIN;
	return (uint64_t)fs.f_bavail * fs.f_frsize >= keep + 2 * len;
}

static int map_window(struct thread_state *t, uint64_t file_off)
{
	size_t len = runtime_config.contract.chunk_bytes;

	/* the windows start at the smallest chunk and double up to a
	 * chunk: a short-lived thread (one per request, a pool's helper)
	 * reserves, fills and faults in little, where a whole first chunk
	 * took milliseconds of its start (a megabyte costs some 0.25 ms) */
	if (file_off < len)
		len = file_off < CONTRACT_CHUNK_MIN ? CONTRACT_CHUNK_MIN : (size_t)file_off;
	/* under a file size limit, a shorter last window; none shorter than
	 * the smallest chunk, which holds the largest record (a deep SYNC)
	 * past the page the window starts in */
	len = (size_t)rt_file_room(file_off, len) & ~(size_t)4095;
	if (len < CONTRACT_CHUNK_MIN) {
		errno = EFBIG;
		return -1;
	}
	/* the program closed our descriptor and may have its own file
	 * there now: recording stops (counted lost) rather than write to it */
	if (!rt_fd_is(t->fd, &t->fd_id)) {
		errno = EBADF;
		return -1;
	}
	/* on a nearly full disk, the smallest window, if even that fits */
	if (!window_fits(t->fd, len)) {
		len = CONTRACT_CHUNK_MIN;
		if (!window_fits(t->fd, len)) {
			errno = ENOSPC;
			return -1;
		}
	}
	if (reserve(t->fd, file_off, len) != 0)
		return -1;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd,
		       (off_t)file_off);
	if (p == MAP_FAILED)
		return -1;
	/* what the last window held is records; the rest is new */
	uint64_t fresh = t->win_base ? t->win_file_off + t->win_len : file_off;
	if (fresh < file_off + len)
		thread_buffer_fill(t->fd, fresh, file_off + len - fresh);
	/* Fault the pages in now, in the slow path: a first write to a
	 * page of a shared file mapping costs microseconds (and the first
	 * one of a file on ext4, milliseconds). Older kernels lack the
	 * advice; then the faults happen as the stream grows. */
	madvise(p, len, MADV_POPULATE_WRITE);
	if (t->win_base)
		munmap(t->win_base, t->win_len);
	t->win_base = p;
	t->win_len = len;
	t->win_file_off = file_off;
	t->end = t->win_base + len;
	return 0;
}

/*
 * Readies the ring's bytes up to UPTO (from its start), and a page more:
 * their pages put in the page cache and mapped in, as a window's are
 * whole.  Done one stretch at a time ahead of the writer, which never
 * passes the place of the next SYNC (t->end), not for the whole ring as
 * the thread starts: a thread that writes little pays neither the time
 * (a 1 MB ring took a flight recording's thread start to three times a
 * trace's) nor the memory for the rest.
 */
static void ring_ready_to(struct thread_state *t, uint64_t upto)
{
	upto = (upto + 4096 + 4095) & ~(uint64_t)4095;
	if (upto > t->ring_bytes)
		upto = t->ring_bytes;
	if (upto <= t->ring_ready)
		return;
	thread_buffer_fill(t->fd, THREAD_FILE_DATA_OFFSET + t->ring_ready, upto - t->ring_ready);
	madvise(t->win_base + t->ring_ready, upto - t->ring_ready, MADV_POPULATE_WRITE);
	t->ring_ready = upto;
}

/*
 * The flight recorder's ring: RING bytes of the file mapped twice, back to
 * back, so a record that runs past the end continues at the start.  The
 * writer's first stretch ends an eighth in, and each SYNC starts the
 * next (trace.c).
 */
static int map_ring(struct thread_state *t, uint64_t ring)
{
	if (rt_file_room(THREAD_FILE_DATA_OFFSET, ring) < ring) {
		errno = EFBIG;
		return -1;
	}
	if (reserve(t->fd, THREAD_FILE_DATA_OFFSET, ring) != 0)
		return -1;
	uint8_t *area = mmap(NULL, 2 * ring, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return -1;
	for (int i = 0; i < 2; i++) {
		void *p = mmap(area + i * ring, ring, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_FIXED, t->fd, THREAD_FILE_DATA_OFFSET);
		if (p == MAP_FAILED) {
			munmap(area, 2 * ring);
			return -1;
		}
	}
	t->win_base = area;
	t->win_len = 2 * ring;
	t->win_file_off = THREAD_FILE_DATA_OFFSET;
	t->ring_bytes = ring;
	t->ring_ready = 0;
	ring_ready_to(t, ring / 8);
	t->ring_end = area + ring;
	t->end = area + ring / 8;
	return 0;
}

/*
 * Runs FN(ARG), work a hook does through libc (a growth, the ring's next
 * stretch, count mode's reservation), between the program's instructions:
 * the vector registers then hold the instrumented function's arguments or
 * its return value, and libc may use them, so their state is kept; errno
 * is the program's, so it is kept too; and the time it takes is left out
 * of the thread's clock.
 */
int thread_paused_call(struct thread_state *t, int (*fn)(void *), void *arg)
{
	int saved = errno;
	uint64_t began = runtime_now();
	int rc = callscope_call_keeping_vectors(fn, arg);

	thread_pause_since(t, began);
	errno = saved;
	return rc;
}

static int ring_ahead(void *arg)
{
	struct thread_state *t = arg;

	ring_ready_to(t, t->next_sync);
	return 0;
}

void thread_buffer_ring_ahead(struct thread_state *t)
{
	if (t->ring_ready < t->ring_bytes)
		thread_paused_call(t, ring_ahead, t);
}

static int grow(void *arg)
{
	struct thread_state *t = arg;
	uint64_t committed = t->hdr->committed_end;
	uint64_t start = committed & ~(uint64_t)4095;
	int rc = map_window(t, start);

	if (rc == 0)
		t->cur = t->win_base + (committed - start);
	else if (!t->truncated)	/* once: the callers then stop growing */
		rt_warn("a thread buffer cannot grow; the thread's further events are "
			"counted as lost", strerror(errno));
	return rc;
}

/* Maps a new window that starts at the page holding the commit point
 * (libc: fstatvfs, posix_fallocate, strerror). */
int thread_buffer_grow(struct thread_state *t)
{
	return thread_paused_call(t, grow, t);
}

static int open_file(struct thread_state *t)
{
	char path[CONTRACT_PATH_MAX + 96];
	char *end = path + sizeof(path);

	for (uint64_t n = 0; n < 1000; n++) {
		char *p = rt_append(path, end, runtime_config.contract.dir);
		p = rt_append(p, end, "/t-");
		p = rt_append_u64(p, end, (uint64_t)runtime_config.pid);
		p = rt_append(p, end, "-");
		p = rt_append_u64(p, end, runtime_config.image);
		p = rt_append(p, end, "-");
		p = rt_append_u64(p, end, t->tid);
		p = rt_append(p, end, "-");
		p = rt_append_u64(p, end, n);
		p = rt_append(p, end, ".buf");
		if (!p)
			return -1;
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			      0600);
		if (fd >= 0 || errno != EEXIST)
			return rt_fd_above_limit(fd);
	}
	return -1;
}

/* Recording goes on with the header alone: every event is counted lost. */
static void no_room(struct thread_state *t)
{
	t->win_base = t->end = NULL;
	t->truncated = 1;
	t->hdr->flags |= THREAD_TRUNCATED;
}

int thread_buffer_open(struct thread_state *t, uint32_t flags)
{
	/* no waits left out unless cpu_wait_open() says otherwise */
	thread_waits_none(t);
	t->tid = (uint32_t)syscall(SYS_gettid);
	t->fd = open_file(t);
	rt_file_id_of(t->fd, &t->fd_id);
	if (t->fd < 0) {
		rt_warn("cannot create a thread buffer in the staging directory",
			strerror(errno));
		return -1;
	}
	if (rt_file_room(0, THREAD_FILE_DATA_OFFSET) < THREAD_FILE_DATA_OFFSET) {
		rt_warn("cannot create a thread buffer", strerror(EFBIG));
		goto fail;
	}
	if (reserve(t->fd, 0, THREAD_FILE_DATA_OFFSET) != 0) {
		rt_warn("cannot create a thread buffer; its events are not counted",
			strerror(errno));
		goto fail;
	}
	void *h = mmap(NULL, THREAD_FILE_DATA_OFFSET, PROT_READ | PROT_WRITE,
		       MAP_SHARED, t->fd, 0);
	if (h == MAP_FAILED) {
		rt_warn("cannot map a thread buffer; its events are not counted",
			strerror(errno));
		goto fail;
	}
	t->hdr = h;
	memcpy(t->hdr->magic, THREAD_FILE_MAGIC, 8);
	t->hdr->version = THREAD_FILE_VERSION;
	t->hdr->pid = (uint32_t)runtime_config.pid;
	t->hdr->tid = t->tid;
	t->hdr->clock = runtime_config.contract.clock;
	t->hdr->image = runtime_config.image;
	t->hdr->flags = flags;
	t->paused = 0;
	t->last_time = runtime_now();
	t->hdr->start_time = t->last_time;
	t->hdr->committed_end = THREAD_FILE_DATA_OFFSET;
	t->win_base = NULL;
	t->truncated = 0;
	t->ring_bytes = 0;
	t->ring_end = (uint8_t *)UINTPTR_MAX;
	if (runtime_config.contract.ncounters && counters_open(t) == 0)
		t->hdr->counter_info = t->ncounters |
				       (t->counter_rdpmc ? THREAD_COUNTERS_BY_RDPMC : 0) |
				       runtime_config.counter_cost << THREAD_COUNTERS_COST_SHIFT;
	/* calls timed by the clock leave out the thread's waits for a CPU */
	if (calls_timed_by_clock(&runtime_config.contract))
		cpu_wait_open(t);
	if (runtime_config.contract.count_nodes) {
		/* capture may begin off (--start-at, --start-stopped): the
		 * nodes count only what runs while it is on */
		t->epoch = __atomic_load_n(&capture_state.epoch, __ATOMIC_ACQUIRE);
		t->capturing = __atomic_load_n(&capture_state.on, __ATOMIC_ACQUIRE);
		if (aggregate_open(t) != 0) {
			rt_warn("cannot reserve space for the call-path nodes", strerror(errno));
			goto fail;
		}
		/* no stream: the event writers find no room and stay idle */
		t->win_base = t->cur = t->end = NULL;
		t->truncated = 1;
		return 0;
	} else if (runtime_config.contract.ring_bytes) {
		t->hdr->flags |= THREAD_RING;
		t->hdr->ring_bytes = runtime_config.contract.ring_bytes;
		if (map_ring(t, runtime_config.contract.ring_bytes) != 0) {
			rt_warn("cannot reserve space for a flight recorder ring; the thread's "
				"events are counted as lost", strerror(errno));
			t->hdr->flags &= ~(uint32_t)THREAD_RING;
			t->hdr->ring_bytes = 0;
			no_room(t);
		}
	} else if (map_window(t, THREAD_FILE_DATA_OFFSET) != 0) {
		rt_warn("cannot reserve space for a thread buffer; the thread's events are "
			"counted as lost", strerror(errno));
		no_room(t);
	}
	t->cur = t->win_base;
	/* ids are per stream: forget any a forked parent handed out */
	t->gen++;
	t->next_id = 1;
	t->epoch = __atomic_load_n(&capture_state.epoch, __ATOMIC_ACQUIRE);
	t->reset_epoch = __atomic_load_n(&capture_state.reset_epoch, __ATOMIC_ACQUIRE);
	t->capturing = __atomic_load_n(&capture_state.on, __ATOMIC_ACQUIRE);
	/* A ring is decoded from a SYNC, and a forked child's stream must
	 * say which calls it begins inside of. */
	if (t->capturing && (t->ring_bytes || t->depth)) {
		t->status = THREAD_RECORDING;
		trace_emit_sync(t, t->last_time);
	}
	return 0;
fail:
	counters_close(t);
	cpu_wait_close(t);
	if (t->hdr)
		munmap(t->hdr, THREAD_FILE_DATA_OFFSET);
	t->hdr = NULL;
	rt_close_own(t->fd, &t->fd_id);
	t->fd = -1;
	return -1;
}

void thread_buffer_close(struct thread_state *t)
{
	counters_close(t);
	cpu_wait_close(t);
	aggregate_close(t);
	if (t->win_base)
		munmap(t->win_base, t->win_len);
	t->ring_bytes = 0;
	if (t->hdr)
		munmap(t->hdr, THREAD_FILE_DATA_OFFSET);
	rt_close_own(t->fd, &t->fd_id);
	t->win_base = NULL;
	t->hdr = NULL;
	t->cur = t->end = NULL;
	t->fd = -1;
}
