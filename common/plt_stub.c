#include "plt_stub.h"

int plt_stub_jump(const uint8_t *entry, size_t size)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	size_t at = 0;

	while (at < sizeof(endbr64) && at < size && entry[at] == endbr64[at])
		at++;
	if (at != sizeof(endbr64))
		at = 0;
	/* bnd: the prefix of -z bndplt's stubs and of GNU ld's IBT ones */
	if (at < size && entry[at] == 0xf2)
		at++;
	if (size - at < 6 || entry[at] != 0xff || entry[at + 1] != 0x25)
		return -1;
	return (int)at;
}
