/* Reader of the native data file; see formats/native.h and docs/FORMAT.md. */
#include "formats/native.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contract.h"
#include "die.h"
#include "formats/cursor.h"
#include "formats/native_checksum.h"
#include "formats/patch_coverage.h"
#include "formats/seal.h"
#include "patch_plan.h"
#include "readfile.h"
#include "xalloc.h"

/* More than this many segments in one object is not a real ELF file. */
#define MAX_SEGMENTS 4096

const char *section_name(uint32_t type)
{
	switch (type) {
	case SECTION_SESSION: return "SESSION";
	case SECTION_PROCESS: return "PROCESS";
	case SECTION_OBJECT: return "OBJECT";
	case SECTION_THREAD: return "THREAD";
	case SECTION_PROCESS_END: return "PROCESS_END";
	case SECTION_COUNTERS: return "COUNTERS";
	case SECTION_END: return "END";
	case SECTION_SUM: return "SUM";
	case SECTION_SUM_PCS: return "SUM_PCS";
	case SECTION_PATCH: return "PATCH";
	case SECTION_PAD: return "PAD";
	case SECTION_CALIBRATION: return "CALIBRATION";
	case SECTION_THREAD_PAUSED: return "THREAD_PAUSED";
	case SECTION_MOVED_CODE: return "MOVED_CODE";
	default: return "unknown";
	}
}

static char *blob_string(const uint8_t *b, size_t len)
{
	return xstrndup((const char *)(b ? b : (const uint8_t *)""), b ? len : 0);
}

static void parse_session(struct cursor *c, struct data_session *s)
{
	s->tsc_start = cursor_u64(c, "session times");
	s->mono_start = cursor_u64(c, "session times");
	s->tsc_end = cursor_u64(c, "session times");
	s->mono_end = cursor_u64(c, "session times");
	s->unix_start_ns = cursor_u64(c, "session times");
	s->mode = cursor_u32(c, "session mode");
	s->clock = cursor_u32(c, "session clock");
	s->wait_status = (int32_t)cursor_u32(c, "exit status");
	s->flags = cursor_u32(c, "session flags");
	s->cwd = (const char *)cursor_blob(c, &s->cwd_len, "working directory");
	s->argc = cursor_u32(c, "argument count");
	s->argv_blobs = c->p;
	for (uint32_t i = 0; i < s->argc && !c->failed; i++) {
		size_t len;
		cursor_blob(c, &len, "argument");
	}
	s->argv_len = c->failed ? 0 : (size_t)(c->p - s->argv_blobs);
	if (s->clock > CONTRACT_CLOCK_MONO)
		cursor_fail(c, "unknown clock");
	if (!c->failed)
		s->present = 1;
}

static void parse_process(struct cursor *c, struct data_file *df)
{
	struct data_process pr;
	size_t len;
	const uint8_t *exe;

	memset(&pr, 0, sizeof(pr));
	pr.pid = cursor_u32(c, "process id");
	pr.image = cursor_u32(c, "process image");
	pr.ppid = cursor_u32(c, "parent id");
	pr.clock = cursor_u32(c, "process clock");
	pr.start_time = cursor_u64(c, "start time");
	pr.start_mono = cursor_u64(c, "start time");
	pr.inner_x256 = cursor_u32(c, "hook overhead");
	pr.outer_x256 = cursor_u32(c, "hook overhead");
	pr.start_inner_x256 = pr.inner_x256;
	pr.start_outer_x256 = pr.outer_x256;
	exe = cursor_blob(c, &len, "executable path");
	pr.cmdline = cursor_blob(c, &pr.cmdline_len, "command line");
	/* from 2026-11-27: the library calls' figure at start, which a
	 * process that never reaches its CALIBRATION has no other way to keep */
	if (cursor_left(c) >= 8) {
		pr.library_inner_x256 = cursor_u32(c, "library call overhead");
		pr.library_outer_x256 = cursor_u32(c, "library call overhead");
		pr.library_start_inner_x256 = pr.library_inner_x256;
		pr.library_start_outer_x256 = pr.library_outer_x256;
	}
	if (pr.clock > CONTRACT_CLOCK_MONO)
		cursor_fail(c, "unknown clock");
	if (c->failed)
		return;
	if (data_file_process(df, pr.pid, pr.image)) {
		cursor_fail(c, "process described twice");
		return;
	}
	pr.exe = blob_string(exe, len);
	ALLOC_GROW(df->processes, df->nprocesses + 1, df->processes_alloc);
	df->processes[df->nprocesses++] = pr;
}

static void parse_process_end(struct cursor *c, struct data_file *df)
{
	uint32_t pid = cursor_u32(c, "process id");
	uint32_t image = cursor_u32(c, "process image");
	uint32_t reason = cursor_u32(c, "end reason");
	cursor_u32(c, "reserved field");
	uint64_t end_time = cursor_u64(c, "end time");
	uint64_t end_mono = cursor_u64(c, "end time");
	struct data_process *pr = (struct data_process *)data_file_process(df, pid, image);

	if (c->failed)
		return;
	if (!pr) {
		cursor_fail(c, "end of a process that was never described");
		return;
	}
	pr->ended = 1;
	pr->end_reason = reason;
	pr->end_time = end_time;
	pr->end_mono = end_mono;
}

/* Whether the pair measured at exit (EXIT_INNER, EXIT_OUTER) is the one
 * to subtract rather than the start's: the lower costing, which is what
 * a call costs when nothing else slows it.  A pair of 0 was not measured. */
static int exit_pair_lower(uint32_t exit_inner, uint32_t exit_outer, uint32_t start_inner,
			   uint32_t start_outer)
{
	uint64_t at_exit = (uint64_t)exit_inner + exit_outer;

	return at_exit && at_exit < (uint64_t)start_inner + start_outer;
}

/* The hooks' cost measured again at exit (exit_pair_lower()).  The main
 * thread's running and waiting times say how far the scheduler stretched
 * the run's clock readings, which no per-call figure can take out. */
static void parse_calibration(struct cursor *c, struct data_file *df)
{
	uint32_t pid = cursor_u32(c, "process id");
	uint32_t image = cursor_u32(c, "process image");
	uint32_t inner = cursor_u32(c, "hook overhead");
	uint32_t outer = cursor_u32(c, "hook overhead");
	uint64_t cpu = cursor_u64(c, "run times");
	uint64_t wait = cursor_u64(c, "run times");
	/* from 2026-11: how much of the waiting the clock left out */
	uint32_t flags = 0;
	uint64_t left_out = 0;
	if (cursor_left(c) >= 16) {
		flags = cursor_u32(c, "calibration flags");
		cursor_u32(c, "calibration flags");
		left_out = cursor_u64(c, "run times");
	}
	/* later still: the samples beside the trace in the hooks */
	struct data_hook_samples hs = { 0 };
	if (cursor_left(c) >= 40) {
		hs.taken = cursor_u64(c, "hook samples");
		hs.inner = cursor_u64(c, "hook samples");
		hs.outer = cursor_u64(c, "hook samples");
		hs.unsure = cursor_u64(c, "hook samples");
		hs.period_ns = cursor_u64(c, "hook samples");
	}
	/* later still: the library calls' hooks measured apart */
	uint32_t lib[4] = { 0, 0, 0, 0 };
	int library_measured = cursor_left(c) >= 48;
	if (library_measured) {
		for (int i = 0; i < 4; i++)
			lib[i] = cursor_u32(c, "library call overhead");
		hs.library_calls = cursor_u64(c, "library calls");
		hs.library_inner = cursor_u64(c, "hook samples");
		hs.library_outer = cursor_u64(c, "hook samples");
		hs.library_unsure = cursor_u64(c, "hook samples");
	}
	struct data_process *pr = (struct data_process *)data_file_process(df, pid, image);

	if (c->failed)
		return;
	if (!pr) {
		cursor_fail(c, "calibration of a process that was never described");
		return;
	}
	if (pr->calibrated_at_exit) {
		cursor_fail(c, "process calibrated twice at exit");
		return;
	}
	pr->calibrated_at_exit = 1;
	pr->exit_inner_x256 = inner;
	pr->exit_outer_x256 = outer;
	if (exit_pair_lower(inner, outer, pr->start_inner_x256, pr->start_outer_x256)) {
		pr->inner_x256 = inner;
		pr->outer_x256 = outer;
	}
	if (library_measured) {	/* else PROCESS's, if it has them */
		pr->library_start_inner_x256 = pr->library_inner_x256 = lib[0];
		pr->library_start_outer_x256 = pr->library_outer_x256 = lib[1];
	}
	pr->library_exit_inner_x256 = lib[2];
	pr->library_exit_outer_x256 = lib[3];
	if (exit_pair_lower(lib[2], lib[3], lib[0], lib[1])) {
		pr->library_inner_x256 = lib[2];
		pr->library_outer_x256 = lib[3];
	}
	pr->run_cpu_ns = cpu;
	pr->run_wait_ns = wait;
	pr->waits_left_out = (flags & CALIBRATION_WAITS_LEFT_OUT) != 0;
	pr->measured_at_exit = !(flags & CALIBRATION_START_ONLY);
	pr->run_wait_left_out_ns = left_out < wait ? left_out : wait;
	pr->hook_samples = hs;
}

static void parse_object(struct cursor *c, struct data_file *df)
{
	struct data_object ob;
	const uint8_t *path;
	size_t path_len;

	memset(&ob, 0, sizeof(ob));
	ob.pid = cursor_u32(c, "process id");
	ob.image = cursor_u32(c, "process image");
	ob.load_bias = cursor_u64(c, "load bias");
	path = cursor_blob(c, &path_len, "object path");
	ob.build_id = cursor_blob(c, &ob.build_id_len, "build id");
	uint32_t nseg = cursor_u32(c, "segment count");
	if (!c->failed && (nseg > MAX_SEGMENTS || (size_t)nseg * 24 > cursor_left(c)))
		cursor_fail(c, "segment count larger than the section");
	if (c->failed)
		return;
	/* the runtime describes objects again at exit: keep the first */
	for (size_t i = 0; i < df->nobjects; i++) {
		struct data_object *o = &df->objects[i];
		if (o->pid == ob.pid && o->image == ob.image && o->load_bias == ob.load_bias &&
		    strlen(o->path) == path_len && !memcmp(o->path, path, path_len)) {
			cursor_bytes(c, (size_t)nseg * 24, "segments");
			return;
		}
	}
	ob.segs = xcalloc(nseg, sizeof(*ob.segs));
	ob.nseg = nseg;
	for (uint32_t i = 0; i < nseg; i++) {
		ob.segs[i].vaddr = cursor_u64(c, "segment");
		ob.segs[i].memsz = cursor_u64(c, "segment");
		ob.segs[i].flags = cursor_u32(c, "segment");
		cursor_u32(c, "segment");
	}
	ob.path = blob_string(path, path_len);
	ALLOC_GROW(df->objects, df->nobjects + 1, df->objects_alloc);
	df->objects[df->nobjects++] = ob;
}

static void parse_thread(struct cursor *c, struct data_file *df)
{
	struct data_thread th;

	memset(&th, 0, sizeof(th));
	th.pid = cursor_u32(c, "process id");
	th.image = cursor_u32(c, "process image");
	th.tid = cursor_u32(c, "thread id");
	th.flags = cursor_u32(c, "thread flags");
	th.clock = cursor_u32(c, "thread clock");
	th.counter_info = cursor_u32(c, "counter information");
	if ((th.counter_info & THREAD_COUNTERS_MASK) > CONTRACT_COUNTERS_MAX)
		cursor_fail(c, "more than two counters");
	th.start_time = cursor_u64(c, "thread start");
	th.lost_events = cursor_u64(c, "lost events");
	th.events_written = cursor_u64(c, "events written");
	if (th.clock > CONTRACT_CLOCK_MONO)
		cursor_fail(c, "unknown clock");
	if (c->failed)
		return;
	th.stream = c->p;
	th.stream_len = cursor_left(c);
	th.stream_offset = (uint64_t)(c->p - c->origin);
	c->p = c->end;
	ALLOC_GROW(df->threads, df->nthreads + 1, df->threads_alloc);
	df->threads[df->nthreads++] = th;
}

/* THREAD_PAUSED: what the clock of the latest THREAD section of the same
 * thread left out.  It follows that section. */
static void parse_thread_paused(struct cursor *c, struct data_file *df)
{
	uint32_t pid = cursor_u32(c, "process id");
	uint32_t image = cursor_u32(c, "process image");
	uint32_t tid = cursor_u32(c, "thread id");
	cursor_u32(c, "reserved");
	uint64_t paused = cursor_u64(c, "time left out");

	if (c->failed)
		return;
	for (size_t i = df->nthreads; i--;) {
		struct data_thread *th = &df->threads[i];
		if (th->pid == pid && th->image == image && th->tid == tid) {
			th->paused = paused;
			return;
		}
	}
	cursor_fail(c, "no THREAD section of this thread before it");
}

static void parse_moved_code(struct cursor *c, struct data_file *df)
{
	uint32_t pid = cursor_u32(c, "process id");
	uint32_t image = cursor_u32(c, "process image");
	uint32_t n = cursor_u32(c, "moved code count");
	cursor_u32(c, "reserved");
	struct data_trampolines t = { pid, image, cursor_u64(c, "trampolines"),
				      cursor_u64(c, "trampolines") };

	if (!c->failed && t.start + t.size < t.start)
		cursor_fail(c, "trampolines that wrap around the address space");
	if (!c->failed && (size_t)n * MOVED_CODE_RECORD > cursor_left(c))
		cursor_fail(c, "moved code count larger than the section");
	if (c->failed)
		return;
	ALLOC_GROW(df->trampolines, df->ntrampolines + 1, df->trampolines_alloc);
	df->trampolines[df->ntrampolines++] = t;
	for (uint32_t i = 0; i < n && !c->failed; i++) {
		struct data_moved_code m = { .pid = pid, .image = image };
		m.copy = cursor_u64(c, "moved code");
		m.from = cursor_u64(c, "moved code");
		m.resume = cursor_u64(c, "moved code");
		const uint8_t *sizes = cursor_bytes(c, 8, "moved code");
		if (c->failed)
			break;
		m.window = sizes[0];
		m.code_len = sizes[1];
		if (!m.window || m.window > PATCH_WINDOW_MAX)
			cursor_fail(c, "moved code of a window of no size or longer than 16 bytes");
		else if (m.copy - t.start > t.size ||
			 (uint64_t)m.code_len + MOVED_CODE_JUMP_BACK > t.start + t.size - m.copy)
			cursor_fail(c, "moved code outside its trampolines");
		else if (m.from + m.window < m.from)
			cursor_fail(c, "moved code from where it wraps around the address space");
		else {
			ALLOC_GROW(df->moved, df->nmoved + 1, df->moved_alloc);
			df->moved[df->nmoved++] = m;
		}
	}
}

static void parse_counters(struct cursor *c, struct data_file *df)
{
	uint32_t n = cursor_u32(c, "counter count");

	if (!c->failed && (n > CONTRACT_COUNTERS_MAX || df->ncounters))
		cursor_fail(c, "more than two counters");
	for (uint32_t i = 0; i < n && !c->failed; i++) {
		size_t len;
		uint32_t type = cursor_u32(c, "counter");
		cursor_u32(c, "counter");
		uint64_t config = cursor_u64(c, "counter");
		const uint8_t *name = cursor_blob(c, &len, "counter name");
		if (c->failed)
			break;
		df->counters[i].type = type;
		df->counters[i].config = config;
		df->counters[i].name = blob_string(name, len);
		df->ncounters = i + 1;
	}
}

static void parse_sum(struct cursor *c, struct data_file *df)
{
	if (df->sum.present) {
		cursor_fail(c, "a second SUM section");
		return;
	}
	df->sum.runs = cursor_u64(c, "sum");
	df->sum.processes = cursor_u64(c, "sum");
	df->sum.threads = cursor_u64(c, "sum");
	df->sum.present = !c->failed;
}

static void parse_sum_pcs(struct cursor *c, struct data_file *df)
{
	if (df->sum.have_pcs) {
		cursor_fail(c, "a second SUM_PCS section");
		return;
	}
	uint64_t n = cursor_u64(c, "sample count");
	if (c->failed)
		return;
	if (n > cursor_left(c) / SUM_PC_SIZE) {
		cursor_fail(c, "more samples than the section holds");
		return;
	}
	df->sum.pcs = cursor_bytes(c, (size_t)n * SUM_PC_SIZE, "samples");
	df->sum.npcs = (size_t)n;
	df->sum.have_pcs = !c->failed;
}

void sum_pc_at(const struct data_sum *sum, size_t i, struct data_sum_pc *out)
{
	struct cursor c;
	const uint8_t *b = sum->pcs + i * SUM_PC_SIZE;

	cursor_init(&c, b, b, b + SUM_PC_SIZE);
	out->path = cursor_u32(&c, "path");
	cursor_u32(&c, "zero");
	out->pc = cursor_u64(&c, "PC");
	out->samples = cursor_u64(&c, "samples");
}

/*
 * END: nothing may follow it, and its checksum (when the writer could
 * take one) must match every byte before it: a flipped bit inside an
 * event stream passes every size check, but not this.
 */
static void parse_end(struct cursor *c, const struct cursor *file, const uint8_t *section,
		      struct data_file *df)
{
	if (cursor_left(file)) {
		cursor_fail(c, "data after the END section");
		return;
	}
	if (cursor_left(c) >= 16) {
		const uint8_t *at = c->p;
		uint64_t sum = cursor_u64(c, "checksum");
		uint64_t weighted = cursor_u64(c, "checksum");
		struct data_checksum want = data_checksum(file->origin,
							  (size_t)(section - file->origin));
		if (sum != want.sum || weighted != want.weighted) {
			c->p = at;
			cursor_fail(c, "the checksum does not match (the file was changed after "
				       "it was written)");
			return;
		}
	}
	df->ended = 1;
}

int data_sections_parse(const uint8_t *bytes, size_t size, uint64_t base_offset,
			struct data_file *out, char *err, size_t errlen)
{
	struct cursor file;

	cursor_init(&file, bytes - base_offset, bytes, bytes + size);
	while (cursor_left(&file)) {
		const uint8_t *start = file.p;
		uint32_t type = cursor_u32(&file, "section header");
		uint32_t flags = cursor_u32(&file, "section header");
		uint64_t len = cursor_u64(&file, "section header");
		if (!file.failed && len > cursor_left(&file))
			cursor_fail(&file, "section longer than the file (truncated?)");
		if (file.failed) {
			snprintf(err, errlen, "offset %llu: %s",
				 (unsigned long long)(file.failed_at - file.origin), file.failed);
			return -1;
		}
		struct cursor c;
		cursor_init(&c, file.origin, file.p, file.p + len);
		file.p += len;
		switch (type) {
		case SECTION_SESSION:
			if (out->session.present)
				cursor_fail(&c, "second SESSION section");
			else
				parse_session(&c, &out->session);
			break;
		case SECTION_PROCESS: parse_process(&c, out); break;
		case SECTION_OBJECT: parse_object(&c, out); break;
		case SECTION_THREAD: parse_thread(&c, out); break;
		case SECTION_PROCESS_END: parse_process_end(&c, out); break;
		case SECTION_COUNTERS: parse_counters(&c, out); break;
		case SECTION_SUM: parse_sum(&c, out); break;
		case SECTION_SUM_PCS: parse_sum_pcs(&c, out); break;
		case SECTION_PATCH: patch_coverage_parse(&c, out); break;
		case SECTION_PAD: break;	/* filler: its bytes mean nothing */
		case SECTION_CALIBRATION: parse_calibration(&c, out); break;
		case SECTION_THREAD_PAUSED: parse_thread_paused(&c, out); break;
		case SECTION_MOVED_CODE: parse_moved_code(&c, out); break;
		case SECTION_END:
			/* the sums stop at its header: its own fields are checked here */
			if (flags)
				cursor_fail(&c, "END section with flags set");
			else
				parse_end(&c, &file, start, out);
			break;
		default:
			/* sections from a newer minor version are skipped */
			break;
		}
		if (c.failed) {
			snprintf(err, errlen, "offset %llu in %s section at offset %llu: %s",
				 (unsigned long long)(c.failed_at - c.origin),
				 section_name(type),
				 (unsigned long long)(start - file.origin), c.failed);
			return -1;
		}
	}
	return 0;
}

int data_file_parse(const uint8_t *bytes, size_t size, struct data_file *out,
		    char *err, size_t errlen)
{
	struct cursor c;

	memset(out, 0, sizeof(*out));
	/* before any arithmetic: an empty file has no mapping, BYTES is NULL */
	if (size == 0) {
		snprintf(err, errlen, "the file is empty");
		return -1;
	}
	cursor_init(&c, bytes, bytes, bytes + size);
	const uint8_t *magic = cursor_bytes(&c, DATA_MAGIC_LEN, "header");
	if (!magic || memcmp(magic, DATA_MAGIC, DATA_MAGIC_LEN)) {
		snprintf(err, errlen, "not a callscope data file (bad magic)");
		return -1;
	}
	uint32_t version = cursor_u32(&c, "header");
	uint32_t header_size = cursor_u32(&c, "header");
	cursor_bytes(&c, 16, "header");
	if (c.failed) {
		snprintf(err, errlen, "header truncated at %zu bytes", size);
		return -1;
	}
	if ((version & 0xffff) != DATA_VERSION_MAJOR) {
		snprintf(err, errlen, "format version %u is not supported (this callscope reads %u)",
			 version & 0xffff, DATA_VERSION_MAJOR);
		return -1;
	}
	if (header_size < DATA_HEADER_SIZE || header_size > size) {
		snprintf(err, errlen, "bad header size %u", header_size);
		return -1;
	}
	out->version_minor = version >> 16;
	if (data_sections_parse(bytes + header_size, size - header_size, header_size,
				out, err, errlen) != 0)
		return -1;
	/* Files of minor version 0 had no END section; a newer one without
	 * it was cut short at a section boundary, where lengths alone
	 * cannot tell. */
	if (out->version_minor >= 1 && !out->ended) {
		snprintf(err, errlen, "offset %zu: the file ends before its END section (truncated)",
			 size);
		return -1;
	}
	if (!out->session.present) {
		snprintf(err, errlen, "no SESSION section (the recording was not sealed)");
		return -1;
	}
	for (size_t i = 0; i < out->nthreads; i++) {
		if (!data_file_process(out, out->threads[i].pid, out->threads[i].image)) {
			snprintf(err, errlen, "thread %u at offset %llu belongs to no recorded process",
				 out->threads[i].tid,
				 (unsigned long long)out->threads[i].stream_offset);
			return -1;
		}
	}
	return 0;
}

const char *data_process_end_name(const struct data_process *pr)
{
	if (!pr->ended)
		return NULL;
	switch (pr->end_reason) {
	case PROCESS_END_EXIT: return "exit";
	case PROCESS_END_EXEC: return "exec";
	default: return NULL;
	}
}

const struct data_process *data_file_process(const struct data_file *df,
					     uint32_t pid, uint32_t image)
{
	for (size_t i = 0; i < df->nprocesses; i++)
		if (df->processes[i].pid == pid && df->processes[i].image == image)
			return &df->processes[i];
	return NULL;
}

int data_process_is_first_image(const struct data_file *df, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (df->processes[j].pid == df->processes[i].pid)
			return 0;
	return 1;
}

/*
 * A staging directory that record could not seal (it says so and names
 * it) is read as the data file it would have become.
 */
static int load_staging(const char *path, struct data_file *out)
{
	uint8_t *bytes;
	size_t size;
	char err[256];

	if (!seal_is_staging(path))
		return error("'%s' is a directory; give the path of a recording, or a "
			     "'.callscope-*' directory that record left", path);
	if (seal_to_memory(path, &bytes, &size) != 0)
		return error("cannot read the recording in '%s': %s", path, strerror(errno));
	if (data_file_parse(bytes, size, out, err, sizeof(err)) != 0) {
		free(bytes);
		data_file_release(out);
		return error("'%s' is damaged: %s", path, err);
	}
	out->bytes = bytes;
	out->size = size;
	out->allocated = 1;
	return 0;
}

int data_file_load(const char *path, struct data_file *out)
{
	char err[256];
	struct stat st;
	int fd = open_regular(path);

	memset(out, 0, sizeof(*out));
	if (fd < 0 && errno == EINVAL && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return load_staging(path, out);
	if (fd < 0 && errno == EINVAL)
		return error("'%s' is not a regular file; give the path of a recording", path);
	if (fd < 0) {
		if (errno == ENOENT)
			return error("cannot open '%s': %s; run 'callscope record' first",
				     path, strerror(errno));
		return error("cannot open '%s': %s", path, strerror(errno));
	}
	if (fstat(fd, &st) != 0) {
		close(fd);
		return error("cannot open '%s': %s", path, strerror(errno));
	}
	size_t size = (size_t)st.st_size;
	void *bytes = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (size && bytes == MAP_FAILED)
		return error("cannot map '%s': %s", path, strerror(errno));
	if (data_file_parse(bytes, size, out, err, sizeof(err)) != 0) {
		if (bytes)
			munmap(bytes, size);
		data_file_release(out);
		return error("'%s' is damaged: %s; record again", path, err);
	}
	out->bytes = bytes;
	out->size = size;
	out->mapped = 1;
	return 0;
}

void data_file_release(struct data_file *df)
{
	for (size_t i = 0; i < df->nprocesses; i++)
		free(df->processes[i].exe);
	for (size_t i = 0; i < df->nobjects; i++) {
		free(df->objects[i].path);
		free(df->objects[i].segs);
	}
	for (size_t i = 0; i < df->ncounters; i++)
		free(df->counters[i].name);
	patch_coverage_release(df);
	free(df->processes);
	free(df->objects);
	free(df->threads);
	free(df->moved);
	free(df->trampolines);
	if (df->mapped && df->bytes)
		munmap((void *)df->bytes, df->size);
	if (df->allocated)
		free((void *)df->bytes);
	memset(df, 0, sizeof(*df));
}
