/*
 * One gzip member (RFC 1952) around a buffer, for pprof's profile.proto.
 *
 * zlib's symbols are weak references: where zlib is linked in (the tools
 * load it on first use, formats/zlib_lazy.c) the data is deflated by it;
 * where it is not, the same member is written with stored (uncompressed)
 * deflate blocks, which is just as valid gzip and takes twenty lines.
 * Either way the reader sees gzip.
 */
#include <string.h>
#include <zlib.h>

#include "formats/export.h"

#pragma weak deflateInit2_
#pragma weak deflate
#pragma weak deflateEnd

static int put(FILE *out, const void *p, size_t n)
{
	return fwrite(p, 1, n, out) == n ? 0 : -1;
}

static uint32_t crc32_of(const uint8_t *p, size_t n)
{
	static uint32_t table[256];
	uint32_t c;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	c = 0xffffffffu;
	for (size_t i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static int stored_write(FILE *out, const uint8_t *data, size_t len)
{
	static const uint8_t header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	uint32_t crc = crc32_of(data, len);
	size_t done = 0;

	if (put(out, header, sizeof(header)))
		return -1;
	do {
		size_t n = len - done > 65535 ? 65535 : len - done;
		uint8_t h[5] = { done + n == len ? 1 : 0, (uint8_t)n, (uint8_t)(n >> 8),
				 (uint8_t)~n, (uint8_t)(~n >> 8) };
		if (put(out, h, sizeof(h)) || put(out, data + done, n))
			return -1;
		done += n;
	} while (done < len);
	uint8_t trailer[8] = { (uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16),
			       (uint8_t)(crc >> 24), (uint8_t)len, (uint8_t)(len >> 8),
			       (uint8_t)(len >> 16), (uint8_t)(len >> 24) };
	return put(out, trailer, sizeof(trailer));
}

static int zlib_write(FILE *out, const uint8_t *data, size_t len)
{
	z_stream z;
	uint8_t buf[16384];
	int rc;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a 32 KB window with the gzip wrapper instead of zlib's */
	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return stored_write(out, data, len);
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = 0;
	do {
		if (!z.avail_in && len) {
			size_t n = len > 1u << 30 ? 1u << 30 : len;
			z.next_in = (Bytef *)(uintptr_t)data;
			z.avail_in = (uInt)n;
			data += n;
			len -= n;
		}
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = deflate(&z, len ? Z_NO_FLUSH : Z_FINISH);
		if (rc == Z_STREAM_ERROR || put(out, buf, sizeof(buf) - z.avail_out)) {
			deflateEnd(&z);
			return -1;
		}
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	return 0;
}

int gzip_write(FILE *out, const uint8_t *data, size_t len)
{
	if (deflateInit2_ && deflate && deflateEnd)
		return zlib_write(out, data, len);
	return stored_write(out, data, len);
}
