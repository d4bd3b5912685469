/*
 * Fuzz harness for the runtime's patch plan check (runtime/patch/plan.c),
 * which stands between a file and the patching of live code: any input
 * must be refused or accepted, never read past its end; and whatever it
 * accepts must keep every promise apply.c relies on, checked here again
 * from the outside (sites, fixups and code inside their sections, windows
 * 5..16 bytes, an object's windows apart and in order).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/patch/plan.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly SIZE bytes, so a read past it is caught */
	uint8_t *copy = malloc(size ? size : 1);
	struct plan p;
	const char *why = NULL;

	memcpy(copy, data, size);
	if (plan_check(copy, size, &p, &why) != 0) {
		if (!why)
			abort();
		free(copy);
		return 0;
	}
	for (uint32_t i = 0; i < p.hdr.nobjects; i++) {
		struct patch_plan_object o;
		plan_object(&p, i, &o);
		if (strlen(plan_string(&p, o.path)) >= p.hdr.string_bytes)
			abort();
		uint64_t last_end = 0;
		for (uint32_t k = 0; k < o.nsites; k++) {
			struct patch_plan_site s;
			if ((uint64_t)o.first_site + k >= p.hdr.nsites)
				abort();
			plan_site(&p, o.first_site + k, &s);
			if (s.window < 5 || s.window > PATCH_WINDOW_MAX || s.addr < last_end ||
			    (uint64_t)s.code + s.code_len > p.hdr.code_bytes ||
			    (uint64_t)s.first_fixup + s.nfixups > p.hdr.nfixups)
				abort();
			last_end = s.addr + s.window;
			volatile uint8_t sum = 0;
			for (uint32_t b = 0; b < s.code_len; b++)
				sum ^= plan_code(&p, s.code)[b];
		}
	}
	free(copy);
	return 0;
}
