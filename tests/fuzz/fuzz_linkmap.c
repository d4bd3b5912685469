/*
 * Fuzz harness for the linker map reader (GNU ld, gold and lld maps):
 * parse, then look every parsed section up by address.  Any input must end
 * in a clean error or a map, never a crash, a hang or a huge allocation.
 */
#include <stdint.h>
#include <string.h>

#include "optimize/sections.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct link_map m;
	char err[128];

	if (link_map_parse((const char *)data, size, &m, err, sizeof(err)) == 0)
		for (size_t i = 0; i < m.n; i++) {
			const struct link_section *s = link_map_find(&m, m.sections[i].addr);
			if (!s || s->addr > m.sections[i].addr)
				__builtin_trap();
			link_map_find(&m, m.sections[i].addr + m.sections[i].size);
		}
	link_map_release(&m);
	return 0;
}
