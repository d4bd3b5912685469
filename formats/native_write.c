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

int data_write_section_parts(FILE *out, enum section_type type,
			     const struct data_part *parts, size_t n)
{
	uint8_t h[SECTION_HEADER_SIZE];
	struct sec_builder b = { h, h + sizeof(h), 0 };
	uint64_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += parts[i].len;
	sec_put_u32(&b, (uint32_t)type);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, len);
	if (fwrite(h, 1, sizeof(h), out) != sizeof(h))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (parts[i].len && fwrite(parts[i].bytes, 1, parts[i].len, out) != parts[i].len)
			return -1;
	return 0;
}

int data_write_section(FILE *out, enum section_type type, const void *payload,
		       size_t len)
{
	const struct data_part part = { payload, len };
	return data_write_section_parts(out, type, &part, 1);
}

int data_write_end(FILE *out)
{
	return data_write_section(out, SECTION_END, NULL, 0);
}
