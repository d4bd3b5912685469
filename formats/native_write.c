/* Writer of the native data file; see formats/native.h. */
#include "formats/native.h"

#include <string.h>

int data_write_header(FILE *out)
{
	uint8_t h[DATA_HEADER_SIZE];
	struct sec_builder b = { h, h + sizeof(h), 0 };

	sec_put_bytes(&b, DATA_MAGIC, DATA_MAGIC_LEN);
	sec_put_u32(&b, DATA_VERSION_MAJOR | (uint32_t)DATA_VERSION_MINOR << 16);
	sec_put_u32(&b, DATA_HEADER_SIZE);
	sec_put_u64(&b, 0);	/* feature bits: none yet */
	sec_put_u64(&b, 0);
	return fwrite(h, 1, sizeof(h), out) == sizeof(h) ? 0 : -1;
}

int data_write_section2(FILE *out, enum section_type type, const void *head,
			size_t head_len, const void *tail, size_t tail_len)
{
	uint8_t h[SECTION_HEADER_SIZE];
	struct sec_builder b = { h, h + sizeof(h), 0 };

	sec_put_u32(&b, (uint32_t)type);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, (uint64_t)head_len + tail_len);
	if (fwrite(h, 1, sizeof(h), out) != sizeof(h))
		return -1;
	if (head_len && fwrite(head, 1, head_len, out) != head_len)
		return -1;
	if (tail_len && fwrite(tail, 1, tail_len, out) != tail_len)
		return -1;
	return 0;
}

int data_write_section(FILE *out, enum section_type type, const void *payload,
		       size_t len)
{
	return data_write_section2(out, type, payload, len, NULL, 0);
}
