/*
 * Where the displaced instructions of patched entries run: a trampoline
 * runs a function's first instructions moved into its slot, and a timer
 * sample there is the function's time, which perf on the unpatched
 * program gives to the function.  The slots lie in memory no object
 * describes, so the recording says which copy stands for which
 * instructions (MOVED_CODE sections, common/sections.h), and the reader
 * takes a PC in a copy for the instruction it was moved from.
 *
 * One section per patched object, built as the object is patched and
 * kept: a forked child's process file gets them all again, under its
 * own pid, from process_write_start().
 */
#include "patch.h"

#include <stdlib.h>

#define SECTIONS_MAX 256

/* The sections built so far; only ever added to (by one thread: start-up,
 * then the loader's lock), read by any. */
static struct moved_section {
	uint8_t *bytes;		/* the whole section, header included */
	size_t len;
} sections[SECTIONS_MAX];
static uint32_t nsections;

/* Writes section S with this process's pid and image. */
static void write_section(const struct moved_section *s)
{
	struct sec_builder at = { s->bytes + SECTION_HEADER_SIZE,
				  s->bytes + SECTION_HEADER_SIZE + 8, 0 };

	sec_put_u32(&at, (uint32_t)runtime_config.pid);
	sec_put_u32(&at, runtime_config.image);
	process_write_section(s->bytes, s->len);
}

void moved_code_describe(const struct plan *p, const struct patch_plan_object *o,
			 const uint8_t *why, uintptr_t bias, const struct pool *pool)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < o->nsites; i++)
		n += why[i] == SITE_OK;
	if (!n || nsections == SECTIONS_MAX)
		return;
	size_t len = SECTION_HEADER_SIZE + MOVED_CODE_HEAD + (size_t)n * MOVED_CODE_RECORD;
	uint8_t *bytes = malloc(len);
	if (!bytes)
		return;
	struct sec_builder b = { bytes, bytes + len, 0 };
	uint8_t *sec = sec_begin(&b, SECTION_MOVED_CODE);
	sec_put_u32(&b, 0);	/* pid and image: write_section() */
	sec_put_u32(&b, 0);
	sec_put_u32(&b, n);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, pool->rx);
	sec_put_u64(&b, pool->size);
	for (uint32_t i = 0; i < o->nsites; i++) {
		struct patch_plan_site s;
		if (why[i] != SITE_OK)
			continue;
		plan_site(p, o->first_site + i, &s);
		sec_put_u64(&b, pool->rx + POOL_HEADER + (uint64_t)i * SITE_SLOT + SITE_BODY);
		sec_put_u64(&b, s.addr + bias);
		sec_put_u64(&b, s.resume ? s.resume + bias : 0);
		const uint8_t sizes[8] = { s.window, (uint8_t)s.code_len };
		sec_put_bytes(&b, sizes, sizeof(sizes));
	}
	sec_end(&b, sec);
	uint32_t k = nsections;
	sections[k] = (struct moved_section){ bytes, len };
	__atomic_store_n(&nsections, k + 1, __ATOMIC_RELEASE);
	write_section(&sections[k]);
}

void patch_write_moved_code(void)
{
	uint32_t n = __atomic_load_n(&nsections, __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < n; i++)
		write_section(&sections[i]);
}
