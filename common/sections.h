/*
 * The native data format's sections, shared by the runtime (which writes
 * PROCESS, OBJECT and PROCESS_END sections into its staging files), the
 * launcher (SESSION, and THREAD when it seals) and the reader.
 * docs/FORMAT.md has the offset/size tables; change both together.
 *
 * Every integer is little-endian whatever the host; sections are written
 * with the sec_put_* builders below, which never allocate.
 */
#ifndef CALLSCOPE_COMMON_SECTIONS_H
#define CALLSCOPE_COMMON_SECTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "contract.h"

#define DATA_MAGIC "CALLSCOP"
#define DATA_MAGIC_LEN 8
#define DATA_VERSION_MAJOR 1
#define DATA_VERSION_MINOR 6
#define DATA_HEADER_SIZE 32
#define SECTION_HEADER_SIZE 16

enum section_type {
	SECTION_SESSION = 1,
	SECTION_PROCESS = 2,
	SECTION_OBJECT = 3,
	SECTION_THREAD = 4,
	SECTION_PROCESS_END = 5,
	SECTION_COUNTERS = 6,
	SECTION_END = 7,	/* last in a sealed file (minor version >= 1): a file
				 * cut at a section boundary lacks it */
	SECTION_SUM = 8,	/* callscope merge: the runs a summed profile adds up */
	SECTION_SUM_PCS = 9,	/* callscope merge: a sum's samples by path and PC */
	SECTION_PATCH = 10,	/* record --patch: the functions patched and skipped */
	SECTION_PAD = 11,	/* filler, skipped (minor version >= 3): puts the
				 * next section where the seal needs it */
	SECTION_CALIBRATION = 12,	/* the hooks' cost measured again at exit
					 * (minor version >= 4) */
	SECTION_THREAD_PAUSED = 13,	/* what a thread's clock left out, for
					 * calls still open at its process's end
					 * (minor version >= 5) */
	SECTION_MOVED_CODE = 14,	/* record --patch: where a patched entry's
					 * displaced instructions run, moved
					 * (minor version >= 6) */
};

/*
 * MOVED_CODE: a header of MOVED_CODE_HEAD bytes (u32 pid, u32 image, u32
 * n, u32 0, u64 runtime address of the object's trampolines, u64 their
 * size: the runtime's code, the hooks' cost, but for the copies), then n
 * records of MOVED_CODE_RECORD bytes, one per patched entry: u64 runtime address of the moved copy, u64 runtime address the
 * instructions were moved from (the first the entry's jump replaced), u64
 * where the copy's jump back lands (0: the copy ends in a jump or return
 * of its own), u8 bytes moved, u8 bytes of the copy before its jump back,
 * 6 bytes 0.  The jump back, when there is one, is MOVED_CODE_JUMP_BACK
 * bytes.
 */
#define MOVED_CODE_HEAD 32
#define MOVED_CODE_RECORD 32
#define MOVED_CODE_JUMP_BACK 5

/* The THREAD_PAUSED section's size: pid, image, tid, 0, clock units */
#define THREAD_PAUSED_SIZE 24

/* CALIBRATION's flags (offset 32): the main thread's clock left out its
 * waits for a CPU, as many ns as offset 40 says; the figures "at exit"
 * repeat the start's, not measured again (count mode) */
#define CALIBRATION_WAITS_LEFT_OUT 1u
#define CALIBRATION_START_ONLY 2u

/* SESSION's flags (offset 52): the file is a snapshot of a program still
 * running (live snapshot): its wait status says nothing, and a process
 * with no end had not ended */
#define SESSION_SNAPSHOT 1u

enum process_end_reason {
	PROCESS_END_EXIT = 0,	/* exit() or return from main */
	PROCESS_END_EXEC = 1,	/* replaced by exec */
};

enum thread_flags {
	THREAD_FORKED = 1 << 0,	/* first stream of a forked child */
	THREAD_TRUNCATED = 1 << 1,	/* buffer could not grow; events lost */
	THREAD_RING = 1 << 2,		/* flight recorder: the stream is the
					 * last part of a ring and starts at a
					 * SYNC record */
	THREAD_CCT = 1 << 3,		/* aggregate mode: the section holds
					 * call-path nodes, not events */
	THREAD_HAS_RESET = 1 << 4,	/* the stream holds a RESET record:
					 * decode from the last one */
	THREAD_SAMPLES_SYSTEM = 1 << 5,	/* --time-by=samples: samples that
					 * counted the kernel's time too */
	THREAD_SAMPLES_USER_ONLY = 1 << 6,	/* --time-by=samples: samples
						 * of user time alone */
	THREAD_SAMPLES_WALL = 1 << 7,	/* --time-by=samples: samples of
					 * wall time */
	THREAD_SAMPLES_TICK = 1 << 8,	/* --time-by=samples: samples the
					 * timer took at the scheduler tick */
	THREAD_SAMPLES_EVENT = 1 << 9,	/* --time-by=samples: samples the
					 * task-clock event took */
};

/* The flags that say what a thread's summed samples were. */
#define THREAD_SAMPLES_KINDS                                                                   \
	(THREAD_SAMPLES_SYSTEM | THREAD_SAMPLES_USER_ONLY | THREAD_SAMPLES_WALL |               \
	 THREAD_SAMPLES_TICK | THREAD_SAMPLES_EVENT)

/*
 * The aggregate mode (record --mode=count): the runtime keeps a thread's
 * call paths and the statistics of their functions in one file-backed
 * array of CCT_RECORD_SIZE-byte records, which the THREAD section holds
 * little-endian.  A record is a call-path node (kind CCT_KIND_PATH), or
 * the first of the CCT_FUNC_RECORDS records of one function's per-call
 * statistics (kind CCT_KIND_FUNC).  Record 0 is the root path (no
 * function), record 1 the path "<truncated>" that collects every call
 * that no longer fit (addr CCT_TRUNCATED_ADDR).  A node's parent is
 * always a path node of lower index.
 */
enum cct_kind {
	CCT_KIND_PATH = 0,
	CCT_KIND_FUNC = 1,
};

struct cct_record {
	uint64_t addr;		/* the function's runtime address, as hooks name it */
	uint32_t parent;
	uint32_t first_child;	/* 0: none */
	uint32_t next_sibling;	/* 0: none */
	uint32_t open;		/* activations still running, and
				 * CCT_OPEN_NOT_A_CALL */
	uint64_t calls;		/* completed activations */
	uint64_t total;		/* their inclusive time, clock units */
	uint64_t open_since;	/* start of the running activation */
	uint32_t kind;		/* CCT_KIND_PATH */
	uint32_t func_record;	/* the function's statistics record, 0: none */
	/* record -e: each counter's increase over the completed
	 * activations, and its value when the running one began; in the
	 * root, counter_since holds the thread's latest readings, where the
	 * analyzer closes activations still running */
	uint64_t counter_total[CONTRACT_COUNTERS_MAX];
	uint64_t counter_since[CONTRACT_COUNTERS_MAX];
	/* completed calls that stack repair closed (longjmp, a stack switch,
	 * an exception), and of those the ones an exception left.  The root
	 * is no call: there they hold the clock units the runtime spent on
	 * its own work (reserving records), hidden from the thread's times,
	 * so that a reader closing activations still running at the
	 * process's end hides them too; and with --time-by=samples the
	 * samples whose PC was in the runtime (the hooks' cost) */
	union {
		uint64_t unwound;
		uint64_t paused;	/* the root's */
	};
	union {
		uint64_t thrown;
		uint64_t hook_samples;	/* the root's */
	};
	/* --time-by=samples: timer samples taken with this path innermost;
	 * in the root, also the sampling period in ns, nonzero only in such
	 * runs, whose times are these samples' */
	uint64_t samples;
	uint64_t sample_period_ns;
	uint64_t reserved;
};

/*
 * One function's calls on the thread, over CCT_FUNC_RECORDS records.
 * Times are inclusive, in clock units, with the hooks' cost measured at
 * start-up subtracted from each call as the analyzer subtracts it from a
 * trace; the period runs from one call's start to the next's.
 */
struct cct_func_record {
	uint64_t addr;
	uint64_t calls;		/* completed calls in the sums below */
	uint64_t sum;
	uint64_t min;		/* UINT64_MAX while calls is 0 */
	uint64_t max;
	uint64_t periods;	/* intervals between consecutive starts */
	uint32_t kind;		/* CCT_KIND_FUNC */
	uint32_t reserved0;
	uint64_t reserved1;
	unsigned __int128 sum_sq;	/* of each call's time */
	uint64_t period_sum;
	uint64_t period_min;	/* UINT64_MAX while periods is 0 */
	uint64_t period_max;
	uint64_t last_start;	/* the latest call's start (UINT64_MAX: none) */
	uint64_t last_hooks_q;	/* the hooks' cost of the thread's calls begun
				 * by then, clock units times 256 */
	uint64_t reserved2;
	/* calls by duration: bucket 0 holds 0, bucket K the times from
	 * 2^(K-1) to 2^K - 1; the last also every longer one */
	uint64_t buckets[64];
};

/* In cct_record.open: the oldest running activation is not a call of
 * the recording (a forked child's inherited frame, or a call already
 * running when capture resumed): its time counts, its call does not. */
#define CCT_OPEN_NOT_A_CALL (1u << 31)

#define CCT_RECORD_SIZE 128
#define CCT_FUNC_RECORDS 5
#define CCT_FUNC_BUCKETS 64
#define CCT_TRUNCATED_ADDR 0xfffffffffffe0000ull
/* In a sum (callscope merge): the path of timer samples whose PC lay in no
 * known object, "<outside>" */
#define CCT_OUTSIDE_ADDR 0xfffffffffffd0000ull

_Static_assert(sizeof(struct cct_record) == CCT_RECORD_SIZE, "path node size");
_Static_assert(sizeof(struct cct_func_record) == CCT_FUNC_RECORDS * CCT_RECORD_SIZE,
	       "function record size");
_Static_assert(offsetof(struct cct_record, kind) == offsetof(struct cct_func_record, kind),
	       "the kind is where both kinds have it");

enum data_mode {
	DATA_MODE_TRACE = 1,
	DATA_MODE_FLIGHT = 2,	/* each thread kept only its newest events */
	DATA_MODE_COUNT = 3,	/* call paths summed in the program */
	DATA_MODE_SAMPLE = 4,	/* timer samples only: the program had no hooks */
};

/*
 * Header of a per-thread staging file, mapped by the runtime and read back
 * by the launcher on the same machine (native byte order; it never leaves
 * the machine: sealing turns it into a little-endian THREAD section).
 * The stream starts at THREAD_FILE_DATA_OFFSET; committed_end is the file
 * offset just past the last whole record, stored after the record's bytes,
 * so a kill at any instant leaves a readable prefix.
 */
#define THREAD_FILE_MAGIC "CSTHREAD"
#define THREAD_FILE_VERSION 1
#define THREAD_FILE_DATA_OFFSET 4096

struct thread_file_header {
	char magic[8];
	uint32_t version;
	uint32_t pid;
	uint32_t tid;
	uint32_t clock;
	uint64_t start_time;
	uint64_t committed_end;
	uint64_t lost_events;
	uint32_t flags;
	uint32_t image;		/* process image number, see PROCESS */
	uint64_t events_written;	/* records written, kept or not */
	/* flight recorder only: the ring's size, and where the most recent
	 * SYNC records start, as stream offsets that only grow (the ring
	 * holds offsets committed_end - ring_bytes and up) */
	uint64_t ring_bytes;
	uint32_t nsync;		/* sync_pos[nsync % RING_SYNC_SLOTS] is next */
	uint32_t counter_info;	/* see THREAD_COUNTERS_* */
	uint64_t sync_pos[64];
	/* count mode timed by samples: where the call memo (below) lies in
	 * the file, past the call-path nodes' room, and how many entries it
	 * has (0: none) */
	uint64_t call_memo_offset;
	uint32_t call_memo_entries;
	uint32_t unused;
	/* the clock units the thread's clock left out so far (the runtime's
	 * own work, waits for a CPU): sealed as a THREAD_PAUSED section */
	uint64_t paused;
};

/*
 * The call memo of a count-mode thread timed by samples
 * (--time-by=samples): entries chosen by a hash of the parent path and
 * the function, as a cache of call paths is, each holding the call path
 * last entered there and that path's whole call count, which its node's
 * `calls` does not have yet.  A call on the same path again then touches
 * the entry alone, not the 128-byte node, so that the hooks' memory
 * traffic stays small beside the program's.  A path has one parent and
 * one function, so it is in one entry at most.  The runtime writes the count into the node
 * when the entry is taken for another path; sealing writes every entry's
 * count into its node (`node` 0: none), which makes the counts whole
 * however the process ended.  Writing a count twice does no harm: it is
 * the node's total, not an increment.
 */
struct thread_call_memo {
	uint64_t addr;		/* the function, as the hooks name it */
	uint32_t parent;	/* the path it was called on */
	uint32_t node;		/* its path: 0 while the entry is being taken */
	uint64_t calls;		/* the path's calls, counted here */
	uint64_t unused;
};

/*
 * The THREAD section's u32 at offset 20 and the staging header's
 * counter_info: how many counter values each entry and exit carries, and
 * whether their figures may be off.
 */
#define THREAD_COUNTERS_MASK 0xffu
/* a counter was time-shared by the kernel, or a signal handler's hooks
 * ran inside a hook: some figures are estimates */
#define THREAD_COUNTERS_UNRELIABLE (1u << 8)
#define THREAD_COUNTERS_BY_RDPMC (1u << 9)	/* read in user space, not read() */
/* bits 16-31: what reading the counters costs a call (at its entry and
 * its exit), measured at start-up, in clock units (0: not measured;
 * 65535: that or more); part of the hooks' cost the reports subtract */
#define THREAD_COUNTERS_COST_SHIFT 16
#define THREAD_COUNTERS_COST_MAX 0xffffu

#define RING_SYNC_SLOTS 64

/* A bounded little-endian byte builder; overflow is sticky. */
struct sec_builder {
	uint8_t *p;
	uint8_t *end;
	int overflow;
};

static inline void sec_put_bytes(struct sec_builder *b, const void *src, size_t n)
{
	if (b->overflow || (size_t)(b->end - b->p) < n) {
		b->overflow = 1;
		return;
	}
	memcpy(b->p, src, n);
	b->p += n;
}

static inline void sec_put_u32(struct sec_builder *b, uint32_t v)
{
	uint8_t le[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			  (uint8_t)(v >> 24) };
	sec_put_bytes(b, le, 4);
}

static inline void sec_put_u64(struct sec_builder *b, uint64_t v)
{
	sec_put_u32(b, (uint32_t)v);
	sec_put_u32(b, (uint32_t)(v >> 32));
}

/* u32 length, then the bytes */
static inline void sec_put_blob(struct sec_builder *b, const void *src, size_t n)
{
	sec_put_u32(b, (uint32_t)n);
	sec_put_bytes(b, src, n);
}

/*
 * Starts a section: writes its header with a zero length and returns where
 * the length goes, for sec_end().
 */
static inline uint8_t *sec_begin(struct sec_builder *b, enum section_type type)
{
	uint8_t *start = b->p;
	sec_put_u32(b, (uint32_t)type);
	sec_put_u32(b, 0);
	sec_put_u64(b, 0);
	return start;
}

static inline void sec_end(struct sec_builder *b, uint8_t *start)
{
	if (b->overflow)
		return;
	uint64_t len = (uint64_t)(b->p - start) - SECTION_HEADER_SIZE;
	struct sec_builder at = { start + 8, start + 16, 0 };
	sec_put_u64(&at, len);
}

#endif
