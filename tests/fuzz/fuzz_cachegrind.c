/*
 * Fuzz harness for the cachegrind output reader: parse, then check that the
 * functions are sorted and unique as promised.  Any input must end in a
 * clean error or a result, never a crash, a hang or a huge allocation.
 */
#include <stdint.h>
#include <string.h>

#include "optimize/cachegrind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_result r;
	char err[128];

	if (cg_parse((const char *)data, size, &r, err, sizeof(err)) == 0)
		for (size_t i = 1; i < r.nfuncs; i++)
			if (strcmp(r.funcs[i - 1].name, r.funcs[i].name) >= 0)
				__builtin_trap();
	cg_release(&r);
	return 0;
}
