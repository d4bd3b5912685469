#include "load/moved_code.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static int by_copy(const void *a, const void *b)
{
	const struct data_moved_code *x = a, *y = b;

	return x->copy < y->copy ? -1 : x->copy > y->copy;
}

void moved_code_map_init(struct moved_code_map *m, const struct data_file *df, uint32_t pid,
			 uint32_t image)
{
	m->copies = NULL;
	m->n = 0;
	m->trampolines = NULL;
	m->ntrampolines = 0;
	for (size_t i = 0; i < df->ntrampolines; i++)
		if (df->trampolines[i].pid == pid && df->trampolines[i].image == image) {
			m->trampolines = xrealloc(m->trampolines, (m->ntrampolines + 1) *
								  sizeof(*m->trampolines));
			m->trampolines[m->ntrampolines++] = df->trampolines[i];
		}
	for (size_t i = 0; i < df->nmoved; i++)
		m->n += df->moved[i].pid == pid && df->moved[i].image == image;
	if (!m->n)
		return;
	m->copies = xcalloc(m->n, sizeof(*m->copies));
	size_t k = 0;
	for (size_t i = 0; i < df->nmoved; i++)
		if (df->moved[i].pid == pid && df->moved[i].image == image)
			m->copies[k++] = df->moved[i];
	qsort(m->copies, m->n, sizeof(*m->copies), by_copy);
}

void moved_code_map_release(struct moved_code_map *m)
{
	free(m->copies);
	free(m->trampolines);
	memset(m, 0, sizeof(*m));
}

/* The bytes of C that run: its moved instructions and its jump back. */
static uint64_t copy_len(const struct data_moved_code *c)
{
	return c->code_len + (c->resume ? MOVED_CODE_JUMP_BACK : 0);
}

uint64_t moved_code_original(const struct moved_code_map *m, uint64_t pc)
{
	size_t lo = 0, hi = m->n;

	/* the last copy that starts at or below PC */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->copies[mid].copy <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return pc;
	const struct data_moved_code *c = &m->copies[lo - 1];
	uint64_t off = pc - c->copy;
	if (off >= copy_len(c))
		return pc;
	if (off >= c->code_len)
		return c->resume;
	/* the planner copies an instruction as it is or makes it longer
	 * (a short branch given a 32-bit reach, a call as a push and a
	 * jump): a copy as long as its window holds every instruction at
	 * its offset there */
	return c->code_len == c->window ? c->from + off : c->from;
}

int moved_code_in_trampoline(const struct moved_code_map *m, uint64_t pc)
{
	if (moved_code_original(m, pc) != pc)
		return 0;
	for (size_t i = 0; i < m->ntrampolines; i++)
		if (pc - m->trampolines[i].start < m->trampolines[i].size)
			return 1;
	return 0;
}
