/*
 * The native data file (callscope.data): reading and writing.  Layout in
 * docs/FORMAT.md and common/sections.h.  The reader treats the file as
 * hostile: every size and offset is checked against the end of its
 * section, and the first problem found is reported with its file offset
 * and section type.
 */
#ifndef CALLSCOPE_FORMATS_NATIVE_H
#define CALLSCOPE_FORMATS_NATIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sections.h"

struct data_session {
	int present;
	uint64_t tsc_start, mono_start, tsc_end, mono_end;
	uint64_t unix_start_ns;
	uint32_t mode;
	uint32_t clock;
	int32_t wait_status;
	uint32_t flags;		/* SESSION_* of common/sections.h */
	const char *cwd;	/* borrowed from the file bytes: not NUL-ended */
	size_t cwd_len;
	uint32_t argc;
	const uint8_t *argv_blobs;	/* argc x (u32 len, bytes), validated */
	size_t argv_len;
};

struct data_segment {
	uint64_t vaddr;
	uint64_t memsz;
	uint32_t flags;
};

struct data_object {
	uint32_t pid, image;
	uint64_t load_bias;
	char *path;		/* owned, NUL-ended copy */
	const uint8_t *build_id;	/* borrowed */
	size_t build_id_len;
	struct data_segment *segs;	/* owned */
	size_t nseg;
};

/* The samples beside a trace that fell in the hooks of a call (CALIBRATION's
 * trailing fields; all 0 in files written before them): TAKEN samples in all, weighted, each
 * PERIOD_NS of thread CPU time; INNER in the callee's measured interval,
 * OUTER in the caller's, UNSURE in the hooks on a side not known. */
struct data_hook_samples {
	uint64_t taken, inner, outer, unsure, period_ns;
	/* the same three for the hooks of library calls, apart from the
	 * above, and how many library calls were entered (all 0 in files
	 * written before they were counted apart) */
	uint64_t library_inner, library_outer, library_unsure;
	uint64_t library_calls;
};

struct data_process {
	uint32_t pid, image, ppid, clock;
	uint64_t start_time, start_mono;
	/* the hooks' cost per call the analyzer subtracts, in clock units
	 * times 256: the lower of the figures measured at start and at exit */
	uint32_t inner_x256, outer_x256;
	uint32_t start_inner_x256, start_outer_x256;	/* measured at start */
	int calibrated_at_exit;		/* a CALIBRATION section was read: */
	int measured_at_exit;		/* and its figures were measured then
					 * (count mode repeats the start's) */
	uint32_t exit_inner_x256, exit_outer_x256;	/* measured at exit */
	/* the same for the hooks of library calls (CALIBRATION's; 0, 0: not
	 * measured, and their calls cost what the compiler hooks' do) */
	uint32_t library_inner_x256, library_outer_x256;
	uint32_t library_start_inner_x256, library_start_outer_x256;
	uint32_t library_exit_inner_x256, library_exit_outer_x256;
	/* between the two measurements the main thread ran RUN_CPU_NS and
	 * waited, runnable, RUN_WAIT_NS for a CPU (0, 0: not known) */
	uint64_t run_cpu_ns, run_wait_ns;
	/* of that waiting, RUN_WAIT_LEFT_OUT_NS was left out of the main
	 * thread's clock; WAITS_LEFT_OUT: it could see its context switches */
	uint64_t run_wait_left_out_ns;
	int waits_left_out;
	struct data_hook_samples hook_samples;
	char *exe;		/* owned */
	const uint8_t *cmdline;	/* borrowed: NUL-separated arguments */
	size_t cmdline_len;
	int ended;
	uint32_t end_reason;
	uint64_t end_time, end_mono;
};

struct data_thread {
	uint32_t pid, image, tid, flags, clock;
	uint32_t counter_info;	/* THREAD_COUNTERS_* of common/sections.h */
	uint64_t start_time;
	uint64_t lost_events;
	uint64_t events_written;	/* records the runtime wrote, kept or not */
	uint64_t paused;	/* clock units its clock left out (THREAD_PAUSED) */
	const uint8_t *stream;	/* borrowed */
	size_t stream_len;
	uint64_t stream_offset;	/* in the file, for error messages */
};

/* A counter the program was recorded with (record -e). */
struct data_counter {
	uint32_t type;
	uint64_t config;
	char *name;		/* owned */
};

/* A summed profile's SUM section (callscope merge). */
struct data_sum {
	int present;
	uint64_t runs, processes, threads;
	/* SUM_PCS: NPCS records of SUM_PC_SIZE bytes (docs/FORMAT.md), read
	 * with sum_pc_at(); the path numbers are not checked yet */
	const uint8_t *pcs;
	size_t npcs;
	int have_pcs;
};

#define SUM_PC_SIZE 24

/* One SUM_PCS record: the samples of path PATH whose PC was PC. */
struct data_sum_pc {
	uint32_t path;
	uint64_t pc;
	uint64_t samples;
};

/* Record I of SUM's SUM_PCS (I < SUM->npcs). */
void sum_pc_at(const struct data_sum *sum, size_t i, struct data_sum_pc *out);

/* record --patch: one object's functions, patched or skipped (PATCH). */
struct data_patch_skip {
	uint64_t addr;		/* link-time entry */
	uint32_t why;		/* enum patch_skip of patch/skip.h, or a newer code */
	const char *name;	/* borrowed from the file bytes: not NUL-ended */
	size_t name_len;	/* 0: the object names it nowhere */
};

struct data_patch_object {
	char *path;		/* owned */
	uint32_t found, patched, fragments;
	struct data_patch_skip *skipped;	/* owned */
	size_t nskipped;
	struct data_patch_skip *trapped;	/* owned; patched with a trap (why: 0) */
	size_t ntrapped;
	/* the process images it describes, first and last: every one but in
	 * a merge of patched runs (0 and UINT32_MAX when the file says none) */
	uint32_t image_first, image_last;
};

/* record --patch: a patched entry's displaced instructions, moved into
 * its trampoline (MOVED_CODE); every address is a runtime address of
 * process image (PID, IMAGE). */
struct data_moved_code {
	uint32_t pid, image;
	uint64_t copy;		/* where the moved instructions run */
	uint64_t from;		/* where they were: the first the jump replaced */
	uint64_t resume;	/* where the copy's jump back lands; 0: none */
	uint8_t window;		/* bytes moved */
	uint8_t code_len;	/* bytes of the copy before its jump back */
};

/* record --patch: the trampolines of one patched object (MOVED_CODE's
 * header), runtime addresses of process image (PID, IMAGE): the runtime's
 * code but for the moved copies in them. */
struct data_trampolines {
	uint32_t pid, image;
	uint64_t start, size;
};

struct data_file {
	const uint8_t *bytes;	/* the whole file, owned (mapped or read) */
	size_t size;
	int mapped;
	int allocated;		/* BYTES is malloc'd (a staging directory read) */
	uint32_t version_minor;
	int ended;		/* the END section was seen */
	struct data_session session;
	struct data_process *processes;
	size_t nprocesses, processes_alloc;
	struct data_object *objects;
	size_t nobjects, objects_alloc;
	struct data_thread *threads;
	size_t nthreads, threads_alloc;
	struct data_counter counters[CONTRACT_COUNTERS_MAX];
	size_t ncounters;
	struct data_sum sum;
	int patched;		/* a PATCH section was read */
	struct data_patch_object *patch;	/* owned */
	size_t npatch;
	struct data_moved_code *moved;	/* owned, in the order read */
	size_t nmoved, moved_alloc;
	struct data_trampolines *trampolines;	/* owned, one per MOVED_CODE */
	size_t ntrampolines, trampolines_alloc;
};

/*
 * Parses BYTES (borrowed: must outlive OUT).  Returns 0, or -1 with a
 * description of the first problem in ERR ("offset N in THREAD section:
 * ...").  OUT is always safe to release.
 */
int data_file_parse(const uint8_t *bytes, size_t size, struct data_file *out,
		    char *err, size_t errlen);

/*
 * Parses a bare sequence of sections (a runtime staging file) into OUT,
 * adding to what is there.  Same contract as data_file_parse().
 */
int data_sections_parse(const uint8_t *bytes, size_t size, uint64_t base_offset,
			struct data_file *out, char *err, size_t errlen);

/* Opens and parses PATH; on failure prints one line and returns -1. */
int data_file_load(const char *path, struct data_file *out);
void data_file_release(struct data_file *df);

/* How PR ended, as a word ("exit", "exec"), a static string; NULL when
 * it has no PROCESS_END, or one of a reason this reader does not know. */
const char *data_process_end_name(const struct data_process *pr);

/* Finds the process record of (PID, IMAGE), or NULL. */
const struct data_process *data_file_process(const struct data_file *df,
					     uint32_t pid, uint32_t image);

/* Whether DF's process image I is the first of its pid: a process, where
 * the images after it are the programs it exec'd (a merge of runs numbers
 * a pid's images on from the earlier run's). */
int data_process_is_first_image(const struct data_file *df, size_t i);

/* Writing: the header, then whole sections.  Return 0 or -1 (errno set). */
int data_write_header(FILE *out);
/* The file header's and a section header's bytes, for a writer that
 * places them itself (the seal, writing a staging file's head in place). */
void data_header_build(uint8_t h[DATA_HEADER_SIZE]);
void section_header_build(uint8_t h[SECTION_HEADER_SIZE], enum section_type type, uint64_t len);
int data_write_section(FILE *out, enum section_type type, const void *payload,
		       size_t len);
/* Writes a section whose payload is the N PARTS one after the other. */
struct data_part {
	const void *bytes;
	size_t len;
};
int data_write_section_parts(FILE *out, enum section_type type,
			     const struct data_part *parts, size_t n);
/* Writes the END section: the last thing a writer does, after every
 * other section, so a reader can tell a whole file from a cut one. */
int data_write_end(FILE *out);
/* The END section with the checksum C of every byte before it, taken by
 * the caller (NULL: none), for a file whose bytes are not all in OUT yet. */
struct data_checksum;
int data_write_end_summed(FILE *out, const struct data_checksum *c);

/* Human name of a section type, for messages. */
const char *section_name(uint32_t type);

#endif
