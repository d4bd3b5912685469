#include "symbols/unwind.h"

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

/* The sample being unwound: what the thread callbacks hand to libdwfl. */
struct unwind_state {
	uint64_t pc, sp, bp;
	const uint8_t *stack;
	size_t len;
	uint64_t *out;
	size_t max, n;
	int truncated;
	int first;
	int read_outside;	/* a read fell outside the copy */
};

struct unwinder {
	Dwfl *dwfl;
	int reporting;		/* modules are being reported */
	int attached;		/* dwfl_attach_state done */
	int broken;		/* libdwfl refused: unwinding gives nothing */
	struct unwind_state st;
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct unwinder *unwinder_new(void)
{
	struct unwinder *u = xcalloc(1, sizeof(*u));

	u->dwfl = dwfl_begin(&offline_callbacks);
	if (!u->dwfl)
		u->broken = 1;
	else
		dwfl_report_begin(u->dwfl);
	u->reporting = 1;
	return u;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
}

int unwinder_add_object(struct unwinder *u, const char *path, uint64_t load_bias)
{
	if (u->broken || !u->reporting)
		return -1;
	if (!dwfl_report_elf(u->dwfl, path, path, -1, load_bias, false))
		return -1;
	return 0;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return 1;
}

/* Reads only from the copied stack: anything else ends the unwinding. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwind_state *st = arg;

	(void)dwfl;
	if (addr < st->sp || addr - st->sp > st->len || st->len - (addr - st->sp) < 8) {
		st->read_outside = 1;
		return false;
	}
	memcpy(result, st->stack + (addr - st->sp), 8);
	return true;
}

/*
 * x86-64 DWARF register numbers: 6 rbp, 7 rsp, 16 the return address
 * column, which is also rip.  The call frame information of a PLT stub
 * computes its CFA from rip (the stubs push a varying number of words:
 * DW_OP_breg16 in the CFA expression of .plt), and libdw reads that
 * register, not the frame's PC: without it, a sample in a stub loses
 * every caller.  perf sets it the same way.
 */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct unwind_state *st = arg;
	Dwarf_Word regs[2] = { st->bp, st->sp };
	Dwarf_Word rip = st->pc;

	if (!dwfl_thread_state_registers(thread, 6, 2, regs) ||
	    !dwfl_thread_state_registers(thread, 16, 1, &rip))
		return false;
	dwfl_thread_state_register_pc(thread, st->pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct unwind_state *st = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(frame, &pc, &activation))
		return DWARF_CB_ABORT;
	if (st->first) {
		st->first = 0;	/* the sampled PC itself */
		return DWARF_CB_OK;
	}
	if (st->n == st->max) {
		st->truncated = 1;
		return DWARF_CB_ABORT;
	}
	st->out[st->n++] = pc;
	return DWARF_CB_OK;
}

size_t unwinder_unwind(struct unwinder *u, uint64_t pc, uint64_t sp, uint64_t bp,
		       const uint8_t *stack, size_t len, uint64_t *out, size_t max,
		       int *truncated)
{
	*truncated = 0;
	if (u->broken)
		return 0;
	if (u->reporting) {
		u->reporting = 0;
		if (dwfl_report_end(u->dwfl, NULL, NULL) != 0) {
			u->broken = 1;
			return 0;
		}
	}
	if (!u->attached) {
		/* the pid only names the process to libdwfl */
		if (!dwfl_attach_state(u->dwfl, NULL, 1, &thread_callbacks, &u->st)) {
			u->broken = 1;
			return 0;
		}
		u->attached = 1;
	}
	u->st = (struct unwind_state){ pc, sp, bp, stack, len, out, max, 0, 0, 1, 0 };
	/* 0 only when the unwinding reached the outermost frame, whose call
	 * frame information marks its return address undefined (_start,
	 * clone); anything else (a frame without call frame information)
	 * leaves the stack short of the thread's first frame.  libdwfl takes
	 * a return address it could not read for an undefined one, so a read
	 * past the end of the copy counts as short too. */
	if (dwfl_getthread_frames(u->dwfl, 1, frame_cb, &u->st) != 0 || u->st.read_outside)
		u->st.truncated = 1;
	*truncated = u->st.truncated;
	return u->st.n;
}
