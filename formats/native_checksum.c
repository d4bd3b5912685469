/* The data file's checksum; see formats/native_checksum.h. */
#include "formats/native_checksum.h"

#include <endian.h>
#include <string.h>

struct data_checksum data_checksum(const uint8_t *p, size_t n)
{
	struct data_checksum c = { 0, 0 };
	return data_checksum_more(c, p, n);
}

struct data_checksum data_checksum_more(struct data_checksum c, const uint8_t *p, size_t n)
{
	uint8_t last[8] = { 0 };
	uint64_t w;

	/* memory-bound as it stands: unrolling with independent sums
	 * measured no faster */
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		c.sum += le64toh(w);
		c.weighted += c.sum;
	}
	if (n) {
		memcpy(last, p, n);
		memcpy(&w, last, 8);
		c.sum += le64toh(w);
		c.weighted += c.sum;
	}
	return c;
}
