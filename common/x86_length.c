#include "x86_length.h"

size_t x86_modrm_length(const uint8_t *modrm, size_t left)
{
	if (left < 1)
		return 0;
	unsigned mod = modrm[0] >> 6, rm = modrm[0] & 7;
	size_t len = 1;
	if (mod == 3)
		return len;
	if (rm == 4) {
		if (left < 2)
			return 0;
		len++;	/* SIB */
		if (mod == 0 && (modrm[1] & 7) == 5)
			len += 4;	/* no base: disp32 */
	}
	if (mod == 0 && rm == 5)
		len += 4;	/* RIP-relative */
	len += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return len <= left ? len : 0;
}

/* Whether the opcode OP of map MAP (1 = 0F, 2 = 0F38, 3 = 0F3A, 5 and 6
 * for AVX512-FP16) takes an 8-bit immediate. */
static int takes_imm8(unsigned map, uint8_t op)
{
	if (map == 3)
		return 1;
	if (map != 1)
		return 0;
	/* the shifts and shuffles by a constant, and the compares */
	return (op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6);
}

size_t x86_vex_length(const uint8_t *code, size_t left)
{
	size_t prefix;
	unsigned map;

	if (left < 2)
		return 0;
	switch (code[0]) {
	case 0xc5: prefix = 2; map = 1; break;
	case 0xc4: prefix = 3; map = code[1] & 0x1f; break;
	case 0x62: prefix = 4; map = code[1] & 0x7; break;
	default: return 0;
	}
	if (map != 1 && map != 2 && map != 3 && map != 5 && map != 6)
		return 0;
	if (left < prefix + 1)
		return 0;
	uint8_t op = code[prefix];
	/* vzeroupper and vzeroall: no operand */
	if (code[0] != 0x62 && map == 1 && op == 0x77)
		return prefix + 1;
	size_t operand = x86_modrm_length(code + prefix + 1, left - prefix - 1);
	if (!operand)
		return 0;
	size_t len = prefix + 1 + operand + (takes_imm8(map, op) ? 1 : 0);
	return len <= left ? len : 0;
}
