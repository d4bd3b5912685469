/*
 * record --pid: attach to a running, unprepared process.  One cpu-clock
 * sampling event per thread that exists at the start (threads created
 * later are not followed), each with its own mapped ring; samples carry
 * the IP, the user call chain and, where the kernel allows rings large
 * enough, the registers and a copy of the top of the stack.  At the end the addresses are resolved
 * with the process's /proc/PID/maps and symbols/symtab.h, and a flat
 * profile is printed: self samples (the function was running) and total
 * samples (it was anywhere on the stack), hottest first.
 *
 * Each sample's callers come from cli/attach_stack.h: unwound from a copy
 * of its stack, else the kernel's chain, each checked for a call before
 * it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/attach.h"
#include "cli/attach_stack.h"
#include "symbols/demangle.h"
#include "symbols/elf_segments.h"
#include "symbols/symtab.h"
#include "symbols/unwind.h"
#include "die.h"
#include "perf_paranoid.h"
#include "xalloc.h"

/* data pages per thread, powers of two: with the kernel's chain alone,
 * and with copies of the stack (256 KB: 30 samples of 8 KB, drained as
 * each comes; a user's perf rings may lock 516 KB in all by default) */
#define RING_PAGES 16
#define RING_PAGES_STACKS 64
#define MAX_THREADS 1024
/* threads whose samples carry stack copies, the first ones found (the
 * main thread among them): 64 MB of rings at most, locked in memory */
#define STACK_THREADS_MAX 256

struct ring {
	int fd;
	struct perf_event_mmap_page *page;
	uint8_t *data;
	uint64_t size;
	int stacks;		/* its samples carry registers and a stack copy */
};

/* Per address: samples with it innermost, and with it on the stack. */
struct hit {
	uint64_t addr;
	uint64_t self;
	uint64_t total;
};

struct attach {
	struct ring rings[MAX_THREADS];
	size_t nrings;
	struct hit *hits;	/* open addressing, power-of-two size */
	size_t hit_mask, nhits;
	uint64_t samples, lost;
	int mem_fd;		/* /proc/PID/mem, or -1: chains unchecked */
	struct unwinder *unwinder;	/* the objects mapped at the start */
	uint64_t by_dwarf;	/* samples whose stack was unwound from its copy */
	int user_only;		/* the kernel refused to sample its own time */
	uint64_t cut;		/* samples whose stack was cut */
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

static struct hit *hit_of(struct attach *a, uint64_t addr)
{
	if (2 * (a->nhits + 1) > a->hit_mask + 1) {
		size_t old_n = a->hit_mask + 1;
		struct hit *old = a->hits;
		a->hit_mask = old_n * 2 - 1;
		a->hits = xmalloc((a->hit_mask + 1) * sizeof(*a->hits));
		memset(a->hits, 0, (a->hit_mask + 1) * sizeof(*a->hits));
		a->nhits = 0;
		for (size_t i = 0; i < old_n; i++) {
			if (!old[i].addr)
				continue;
			struct hit *h = hit_of(a, old[i].addr);
			h->self = old[i].self;
			h->total = old[i].total;
		}
		free(old);
	}
	size_t i = (size_t)(addr * 0x9e3779b97f4a7c15ull >> 20) & a->hit_mask;
	while (a->hits[i].addr && a->hits[i].addr != addr)
		i = (i + 1) & a->hit_mask;
	if (!a->hits[i].addr) {
		a->hits[i].addr = addr;
		a->nhits++;
	}
	return &a->hits[i];
}

/* Opens thread TID's event and its ring, with copies of the stack when
 * STACKS.  Returns 0, or -1 with errno set. */
static int open_ring(struct attach *a, pid_t tid, unsigned hz, int stacks)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.freq = 1;
	attr.sample_freq = hz;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	if (stacks)
		attach_stack_ask(&attr);
	/* CPU time in the kernel too, charged to the system call that spent
	 * it, unless perf_event_paranoid keeps the kernel's time from users */
	attr.exclude_kernel = a->user_only;
	attr.exclude_hv = 1;
	attr.exclude_callchain_kernel = 1;
	attr.wakeup_events = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && !a->user_only && (errno == EACCES || errno == EPERM)) {
		a->user_only = 1;
		attr.exclude_kernel = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -1;
	long pagesz = sysconf(_SC_PAGESIZE);
	size_t pages = stacks ? RING_PAGES_STACKS : RING_PAGES;
	void *m = mmap(NULL, (size_t)pagesz * (1 + pages), PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);
	if (m == MAP_FAILED) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	struct ring *r = &a->rings[a->nrings++];
	r->fd = fd;
	r->page = m;
	r->data = (uint8_t *)m + pagesz;
	r->size = (uint64_t)pagesz * pages;
	r->stacks = stacks;
	return 0;
}

/* Thread TID's ring: with copies of the stack where the kernel allows
 * (the rings' locked memory is limited for users) and within
 * STACK_THREADS_MAX, else the chain alone. */
static int open_thread(struct attach *a, pid_t tid, unsigned hz)
{
	if (a->nrings < STACK_THREADS_MAX && open_ring(a, tid, hz, 1) == 0)
		return 0;
	return open_ring(a, tid, hz, 0);
}

static void copy_out(const struct ring *r, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos & (r->size - 1);
	size_t first = len < r->size - off ? len : (size_t)(r->size - off);
	memcpy(dst, r->data + off, first);
	memcpy((uint8_t *)dst + first, r->data, len - first);
}

static void drain(struct attach *a, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->page->data_tail;
	uint64_t rec[1 + ATTACH_SAMPLE_WORDS];	/* the header, then the sample */
	uint64_t callers[ATTACH_STACK_MAX];

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		copy_out(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		struct attach_sample s;
		if (h.type == PERF_RECORD_SAMPLE && h.size <= sizeof(rec)) {
			copy_out(r, tail, rec, h.size);
			if (attach_sample_parse(rec + 1, (h.size - sizeof(h)) / 8, r->stacks,
						&s) == 0) {
				struct attach_callers how;
				size_t n = attach_sample_callers(&s, a->unwinder, a->mem_fd,
								 callers, &how);
				a->samples++;
				a->by_dwarf += (uint64_t)how.unwound;
				a->cut += (uint64_t)how.cut;
				hit_of(a, s.ip)->self++;
				hit_of(a, s.ip)->total++;
				/* a return address points past its call */
				for (size_t i = 0; i < n; i++)
					hit_of(a, callers[i] - 1)->total++;
			}
		} else if (h.type == PERF_RECORD_LOST) {
			copy_out(r, tail, rec, h.size < sizeof(rec) ? h.size : sizeof(rec));
			a->lost += rec[2];
		}
		tail += h.size;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
}

/* Adds every mapped ELF object of PID to ST with its load bias, and to
 * UNWINDER too unless it is NULL. */
static void load_maps(struct symtab *st, struct unwinder *unwinder, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	char line[4096 + 256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, off;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &start, &end, perms, &off,
			   &name_at) < 4 || !name_at || perms[2] != 'x' || line[name_at] != '/')
			continue;
		char *file = line + name_at;
		file[strcspn(file, "\n")] = '\0';
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		struct elf_segment ph[64];
		struct symtab_segment segs[64];
		size_t nseg = elf_segments_read(fd, ph, 64);
		uint64_t bias = 0;
		int found = 0;
		close(fd);
		for (size_t i = 0; i < nseg; i++) {
			segs[i] = (struct symtab_segment){ ph[i].vaddr, ph[i].memsz, ph[i].flags };
			if (!found && (ph[i].offset & ~4095ull) == off) {
				bias = start - (ph[i].vaddr & ~4095ull);
				found = 1;
			}
		}
		if (!found)
			continue;
		symtab_add_object(st, file, bias, NULL, 0, segs, nseg);
		if (unwinder)
			unwinder_add_object(unwinder, file, bias);
	}
	fclose(f);
}

struct row {
	const char *name;
	uint64_t self, total;
};

static int by_self(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	if (a->self != b->self)
		return a->self < b->self ? 1 : -1;
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct row *)x)->name, ((const struct row *)y)->name);
}

static void report(struct attach *a, struct symtab *st, pid_t pid, double seconds)
{
	struct row *rows = xmalloc((a->nhits + 1) * sizeof(*rows));
	size_t n = 0;

	load_maps(st, NULL, pid);	/* objects loaded since the start */
	for (size_t i = 0; i <= a->hit_mask; i++) {
		if (!a->hits[i].addr)
			continue;
		struct symbol_info si;
		symtab_lookup(st, a->hits[i].addr, 0, &si);
		rows[n++] = (struct row){ si.name, a->hits[i].self, a->hits[i].total };
	}
	/* several addresses of one function become one row; total may then
	 * count a recursive function more than once per sample */
	qsort(rows, n, sizeof(*rows), by_name);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && !strcmp(rows[m - 1].name, rows[i].name)) {
			rows[m - 1].self += rows[i].self;
			rows[m - 1].total += rows[i].total;
		} else {
			rows[m++] = rows[i];
		}
	}
	qsort(rows, m, sizeof(*rows), by_self);
	printf("# callscope record --pid %d: %llu samples in %.1f s; lost samples: %llu\n",
	       (int)pid, (unsigned long long)a->samples, seconds, (unsigned long long)a->lost);
	printf("# %s\n", a->user_only
		       ? "CPU time in user space only: the kernel keeps its own time from this user "
			 "(perf_event_paranoid), so system calls' time is in no function"
		       : "CPU time in user space and in the kernel, a system call's in the function "
			 "that made it");
	printf("# stacks: %llu unwound from a copy by call frame information, %llu by frame "
	       "pointers\n", (unsigned long long)a->by_dwarf,
	       (unsigned long long)(a->samples - a->by_dwarf));
	if (a->mem_fd < 0)
		printf("# stacks unchecked (/proc/%d/mem unreadable): code without frame "
		       "pointers may add frames that are not\n", (int)pid);
	else
		printf("# stacks cut where a frame's return address follows no call "
		       "(code without frame pointers, or no call frame information): %llu of %llu\n",
		       (unsigned long long)a->cut, (unsigned long long)a->samples);
	printf("%7s %10s %10s  %s\n", "% self", "self", "total", "function");
	for (size_t i = 0; i < m; i++) {
		if (!rows[i].self && !rows[i].total)
			continue;
		char *shown = demangle_for_display(rows[i].name);
		printf("%7.2f %10llu %10llu  %s\n",
		       a->samples ? 100.0 * (double)rows[i].self / (double)a->samples : 0.0,
		       (unsigned long long)rows[i].self, (unsigned long long)rows[i].total,
		       shown);
		free(shown);
	}
	free(rows);
}

/* The owner of process PID, or -1 when it cannot be read. */
static long process_owner(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st) == 0 ? (long)st.st_uid : -1;
}

/*
 * Why perf_event_open refused: another user's process, a paranoid
 * setting that forbids perf events to users, or (neither) a container's
 * seccomp filter.  One line each, with what to do.
 */
static void explain_refusal(pid_t pid, int err)
{
	int paranoid = 99;	/* unknown: as strict as any */
	perf_paranoid_read(&paranoid);
	if (err == EACCES || err == EPERM) {
		long owner = process_owner(pid);
		if (owner >= 0 && (uid_t)owner != geteuid() && geteuid() != 0)
			die("cannot sample process %d: it belongs to another user (uid %ld); "
			    "sampling it needs CAP_PERFMON (or root)", (int)pid, owner);
		if (paranoid > 2 && geteuid() != 0)
			die("cannot sample process %d: kernel.perf_event_paranoid is %d, which "
			    "forbids perf events to users without CAP_PERFMON; set it to 2 "
			    "(sysctl kernel.perf_event_paranoid=2) or run the program under "
			    "'callscope record'", (int)pid, paranoid);
		die("cannot sample process %d: %s (kernel.perf_event_paranoid is %d; inside a "
		    "container the seccomp profile may forbid perf_event_open); run the program "
		    "under 'callscope record' instead", (int)pid, strerror(err), paranoid);
	}
	if (err == ENOSYS || err == ENOENT || err == EOPNOTSUPP)
		die("cannot sample process %d: this kernel has no perf events (%s); run the "
		    "program under 'callscope record' instead", (int)pid, strerror(err));
	die("cannot sample process %d: %s", (int)pid, strerror(err));
}

int attach_record(const char *pid_text, const char *duration_text, unsigned hz)
{
	static struct attach a;
	char *end;
	long pid = strtol(pid_text, &end, 10);
	double duration = 0;
	char task_dir[64];

	if (*end || end == pid_text || pid <= 0 || pid > 0x3fffffff)
		usage_die("--pid wants a process id, not '%s'", pid_text);
	if (duration_text) {
		duration = strtod(duration_text, &end);
		if (*end || end == duration_text || !(duration > 0) || duration > 1e7)
			usage_die("--duration wants seconds above 0, not '%s'", duration_text);
	}
	snprintf(task_dir, sizeof(task_dir), "/proc/%ld/task", pid);
	DIR *d = opendir(task_dir);
	if (!d && errno == ENOENT)
		die("cannot sample process %ld: there is no such process", pid);
	if (!d)
		die("cannot sample process %ld: %s", pid, strerror(errno));
	struct dirent *e;
	int first_err = 0;
	while ((e = readdir(d)) && a.nrings < MAX_THREADS) {
		long tid = strtol(e->d_name, &end, 10);
		if (tid <= 0 || *end)
			continue;
		if (open_thread(&a, (pid_t)tid, hz) != 0 && !first_err)
			first_err = errno;
	}
	closedir(d);
	if (!a.nrings)
		explain_refusal((pid_t)pid, first_err ? first_err : ESRCH);
	a.hit_mask = 1023;
	a.hits = xmalloc((a.hit_mask + 1) * sizeof(*a.hits));
	memset(a.hits, 0, (a.hit_mask + 1) * sizeof(*a.hits));

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr, "callscope: sampling %zu thread%s of process %ld at %u Hz%s\n", a.nrings,
		a.nrings == 1 ? "" : "s", pid, hz,
		duration_text ? "" : "; interrupt (Ctrl-C) to stop");
	/* the objects now, while the process surely lives */
	snprintf(task_dir, sizeof(task_dir), "/proc/%ld/mem", pid);
	a.mem_fd = open(task_dir, O_RDONLY | O_CLOEXEC);
	struct symtab *st = symtab_new();
	a.unwinder = unwinder_new();
	load_maps(st, a.unwinder, (pid_t)pid);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double elapsed = 0;
	/* woken by any thread's sample: a ring of stack copies fills in
	 * a tenth of a second */
	static struct pollfd wait[MAX_THREADS];
	for (size_t i = 0; i < a.nrings; i++)
		wait[i] = (struct pollfd){ a.rings[i].fd, POLLIN, 0 };
	while (!interrupted && (!duration_text || elapsed < duration)) {
		poll(wait, a.nrings, 100);
		for (size_t i = 0; i < a.nrings; i++)
			drain(&a, &a.rings[i]);
		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
		if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			break;
	}
	for (size_t i = 0; i < a.nrings; i++)
		drain(&a, &a.rings[i]);
	report(&a, st, (pid_t)pid, elapsed);
	symtab_free(st);
	unwinder_free(a.unwinder);
	if (a.mem_fd >= 0)
		close(a.mem_fd);
	return 0;
}
