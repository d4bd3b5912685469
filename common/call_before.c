#include "call_before.h"

#include "x86_length.h"

#include <stddef.h>

/* Whether the K bytes at CODE are one FF /2 instruction (a call through a
 * register or memory), by the length its ModRM, SIB and displacement
 * give. */
static int indirect_call_of_length(const uint8_t *code, size_t k)
{
	if (k < 2 || code[0] != 0xff || ((code[1] >> 3) & 7) != 2)
		return 0;
	return 1 + x86_modrm_length(code + 1, k - 1) == k;
}

int code_ends_in_call(const uint8_t before[CALL_BEFORE_BYTES])
{
	if (before[CALL_BEFORE_BYTES - 5] == 0xe8)
		return 1;
	for (size_t k = 2; k <= CALL_BEFORE_BYTES; k++)
		if (indirect_call_of_length(before + CALL_BEFORE_BYTES - k, k))
			return 1;
	return 0;
}
