/*
 * record --pid: one sample of an attached thread's perf ring, and its
 * callers.  The kernel finds a chain by frame pointers, and code built
 * without them (most of a distribution) leaves %rbp holding any value, so
 * each sample also carries the thread's registers and a copy of the top of
 * its stack, which symbols/unwind.h unwinds with the objects' call frame
 * information, as record's own samples are; the kernel's chain is the
 * fallback where that gives nothing.  Either way each return address is
 * checked against the process's memory for a call instruction ending
 * right before it (common/call_before.h), and the stack is cut at the
 * first that has none.
 */
#ifndef CALLSCOPE_CLI_ATTACH_STACK_H
#define CALLSCOPE_CLI_ATTACH_STACK_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling.h"
#include "symbols/unwind.h"

#define ATTACH_STACK_MAX 128	/* callers kept of one sample */

/* The words of the largest sample after its header: the IP, pid and tid,
 * the chain, the registers and the stack copy with its sizes. */
#define ATTACH_SAMPLE_WORDS (3 + ATTACH_STACK_MAX + 4 + 2 + SAMPLING_COPY_MAX / 8)

/* One sample as the ring holds it: the IP, the kernel's chain, and with a
 * stack copy the registers and the bytes the kernel could copy. */
struct attach_sample {
	uint64_t ip;
	const uint64_t *chain;
	uint64_t nchain;
	uint64_t bp, sp;	/* 0 without a copy */
	const uint8_t *stack;
	uint64_t stack_len;
};

/* Asks ATTR's samples for the registers and the stack copy too. */
void attach_stack_ask(struct perf_event_attr *attr);

/* Reads the sample of WORDS 8-byte words after its header, with the
 * registers and the copy when STACKS (what attach_stack_ask() asked).  A
 * sample taken in the kernel (a system call's time) gets the PC of the
 * user code that entered it.  Returns 0, or -1 when its fields do not
 * fit. */
int attach_sample_parse(const uint64_t *w, size_t words, int stacks, struct attach_sample *s);

/* How a sample's callers were found. */
struct attach_callers {
	int unwound;		/* from the stack copy, else the kernel's chain */
	int cut;		/* stopped at a return address after no call */
};

/*
 * Fills OUT with the return addresses of S's callers, innermost first,
 * at most ATTACH_STACK_MAX: unwound by UNWINDER from its copy, else the
 * kernel's chain; each checked in the process's memory MEM_FD (-1: not
 * checked).  Returns how many; *HOW says how they were found.
 */
size_t attach_sample_callers(const struct attach_sample *s, struct unwinder *unwinder,
			     int mem_fd, uint64_t out[ATTACH_STACK_MAX],
			     struct attach_callers *how);

#endif
