/*
 * The function calibrate.c times for a patched program: a trampoline
 * built as every site's is, around the displaced code of the empty
 * function callscope_calibration_plain (push, mov, pop, ret), so a call
 * of it pays the entry hook, the balanced call of the body and the exit
 * hook of a patched call.  Only the text's own jump into the trampoline
 * (one direct jump) is not in it.
 */
#include "patch.h"

#include <string.h>
#include <sys/mman.h>

void callscope_calibration_plain(void) HIDDEN;

typedef void (*calibration_fn)(void);

calibration_fn patch_calibration_target(void)
{
	static const uint8_t body[] = { 0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3 };
	static uint8_t image[sizeof(struct patch_plan_header) + sizeof(struct patch_plan_site) +
			     sizeof(body)];
	static calibration_fn made;
	struct patch_plan_header h = { PATCH_PLAN_MAGIC, PATCH_PLAN_VERSION, 0, 1, 0,
				       sizeof(body), 0 };
	struct patch_plan_site s = { .function = (uintptr_t)callscope_calibration_plain,
				     .kind = PATCH_JMP32, .window = sizeof(body),
				     .code_len = sizeof(body) };
	struct plan plan;
	struct pool pool;
	const char *why;

	if (made)
		return made;
	memcpy(s.original, body, sizeof(body));
	memcpy(image, &h, sizeof(h));
	memcpy(image + sizeof(h), &s, sizeof(s));
	memcpy(image + sizeof(h) + sizeof(s), body, sizeof(body));
	if (plan_check(image, sizeof(image), &plan, &why) != 0)
		return NULL;
	/* anywhere will do: the body refers to nothing outside it */
	uintptr_t near = (uintptr_t)callscope_calibration_plain;
	if (pool_map(&pool, near, near + 1, POOL_HEADER + SITE_SLOT, &why) != 0)
		return NULL;
	uintptr_t hooks[2] = { (uintptr_t)callscope_patch_entry, (uintptr_t)callscope_patch_exit };
	memcpy(pool.rw, hooks, sizeof(hooks));
	if (site_build(&plan, &s, 0, pool.rx, pool.rw + POOL_HEADER, pool.rx + POOL_HEADER) !=
	    SITE_OK) {
		pool_unmap(&pool);
		return NULL;
	}
	pool_seal(&pool);
	patch_pools_add(pool.rx, pool.rx + pool.size);
	made = (calibration_fn)(pool.rx + POOL_HEADER + SITE_ENTRY);
	return made;
}
