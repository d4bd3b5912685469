#include "cli/attach_stack.h"

#include <asm/perf_regs.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "call_before.h"

/* the registers a stack copy is unwound from, in the order of their bits */
#define STACK_REGS ((1ull << PERF_REG_X86_BP) | (1ull << PERF_REG_X86_SP) | (1ull << PERF_REG_X86_IP))

void attach_stack_ask(struct perf_event_attr *attr)
{
	attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr->sample_regs_user = STACK_REGS;
	attr->sample_stack_user = SAMPLING_COPY_MAX;
}

/* Whether PC lies in the kernel: its addresses are the top half's. */
static int in_kernel(uint64_t pc)
{
	return (int64_t)pc < 0;
}

/* The user-space PC of a sample taken in the kernel, where its chain of
 * user frames begins (after the PERF_CONTEXT_USER marker), or PC. */
static uint64_t user_pc(uint64_t pc, const uint64_t *chain, uint64_t n)
{
	for (uint64_t i = 0; i + 1 < n; i++)
		if (chain[i] == (uint64_t)PERF_CONTEXT_USER)
			return chain[i + 1];
	return pc;
}

int attach_sample_parse(const uint64_t *w, size_t words, int stacks, struct attach_sample *s)
{
	size_t at = 2;	/* ip, pid|tid */

	memset(s, 0, sizeof(*s));
	if (words < 3)
		return -1;
	s->ip = w[0];
	s->nchain = w[at++];
	if (s->nchain > words - at)
		return -1;
	s->chain = w + at;
	at += s->nchain;
	/* time in a system call is the calling code's, as where the
	 * program's own sampler finds it (record's task-clock event) */
	if (in_kernel(s->ip))
		s->ip = user_pc(s->ip, s->chain, s->nchain);
	if (!stacks)
		return 0;
	if (at >= words)
		return -1;
	if (w[at++] != PERF_SAMPLE_REGS_ABI_NONE) {
		if (words - at < 3)
			return -1;
		s->bp = w[at], s->sp = w[at + 1];	/* their bits' order */
		if (in_kernel(s->ip))
			s->ip = w[at + 2];
		at += 3;
	}
	if (at >= words)
		return -1;
	uint64_t size = w[at++];
	if (size / 8 > words - at || (size && size / 8 + 1 > words - at))
		return -1;
	s->stack = (const uint8_t *)(w + at);
	s->stack_len = size ? w[at + size / 8] : 0;	/* the bytes copied of SIZE */
	if (s->stack_len > size)
		s->stack_len = size;
	return 0;
}

/* Whether PC, in the process whose memory MEM_FD reads, is a return
 * address: a call ends right before it. */
static int after_a_call(int mem_fd, uint64_t pc)
{
	uint8_t before[CALL_BEFORE_BYTES];

	if (mem_fd < 0)
		return 1;	/* cannot tell: kept */
	return pc >= sizeof(before) &&
	       pread(mem_fd, before, sizeof(before), (off_t)(pc - sizeof(before))) ==
		       (ssize_t)sizeof(before) &&
	       code_ends_in_call(before);
}

size_t attach_sample_callers(const struct attach_sample *s, struct unwinder *unwinder,
			     int mem_fd, uint64_t out[ATTACH_STACK_MAX],
			     struct attach_callers *how)
{
	uint64_t unwound[ATTACH_STACK_MAX];
	const uint64_t *pcs = s->chain;
	size_t n = s->nchain, kept = 0;
	int truncated;

	*how = (struct attach_callers){ 0, 0 };
	if (s->stack_len && s->sp) {
		size_t got = unwinder_unwind(unwinder, s->ip, s->sp, s->bp, s->stack, s->stack_len,
					     unwound, ATTACH_STACK_MAX, &truncated);
		if (got) {
			pcs = unwound, n = got;
			how->unwound = 1;
		}
	}
	int first = !how->unwound;
	for (size_t i = 0; i < n && kept < ATTACH_STACK_MAX; i++) {
		uint64_t pc = pcs[i];
		/* the kernel's context markers, and the IP heading its chain */
		if (pc >= (uint64_t)PERF_CONTEXT_MAX)
			continue;
		if (first && (first = 0, pc == s->ip))
			continue;
		if (!after_a_call(mem_fd, pc)) {
			how->cut = 1;
			break;
		}
		out[kept++] = pc;
	}
	return kept;
}
