/* Writer of the native data file; see formats/native.h. */
#include "formats/native.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "formats/native_checksum.h"

void data_header_build(uint8_t h[DATA_HEADER_SIZE])
{
	struct sec_builder b = { h, h + DATA_HEADER_SIZE, 0 };

	sec_put_bytes(&b, DATA_MAGIC, DATA_MAGIC_LEN);
	sec_put_u32(&b, DATA_VERSION_MAJOR | (uint32_t)DATA_VERSION_MINOR << 16);
	sec_put_u32(&b, DATA_HEADER_SIZE);
	sec_put_u64(&b, 0);	/* feature bits: none yet */
	sec_put_u64(&b, 0);
}

void section_header_build(uint8_t h[SECTION_HEADER_SIZE], enum section_type type, uint64_t len)
{
	struct sec_builder b = { h, h + SECTION_HEADER_SIZE, 0 };

	sec_put_u32(&b, (uint32_t)type);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, len);
}

int data_write_header(FILE *out)
{
	uint8_t h[DATA_HEADER_SIZE];

	data_header_build(h);
	return fwrite(h, 1, sizeof(h), out) == sizeof(h) ? 0 : -1;
}

int data_write_section_parts(FILE *out, enum section_type type,
			     const struct data_part *parts, size_t n)
{
	uint8_t h[SECTION_HEADER_SIZE];
	uint64_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += parts[i].len;
	section_header_build(h, type, len);
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

/*
 * The checksum covers every byte before the END section, so it is taken
 * from the file as written rather than summed along the way: the
 * sections come from several writers, some copying staging files whole.
 * A file that cannot be read back (a pipe, a write-only descriptor) gets
 * an END section without one.
 */
int data_write_end(FILE *out)
{
	struct stat st;
	int fd = fileno(out);

	if (fflush(out) != 0)
		return -1;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    ftello(out) == st.st_size) {
		size_t size = (size_t)st.st_size;
		void *bytes = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		if (bytes != MAP_FAILED) {
			struct data_checksum c = data_checksum(bytes, size);
			munmap(bytes, size);
			return data_write_end_summed(out, &c);
		}
	}
	return data_write_end_summed(out, NULL);
}

int data_write_end_summed(FILE *out, const struct data_checksum *c)
{
	uint8_t payload[16];
	struct sec_builder b = { payload, payload + sizeof(payload), 0 };

	if (c) {
		sec_put_u64(&b, c->sum);
		sec_put_u64(&b, c->weighted);
	}
	return data_write_section(out, SECTION_END, payload, (size_t)(b.p - payload));
}
