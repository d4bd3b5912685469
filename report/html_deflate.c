/*
 * zlib's raw deflate at level 9 (the page is written once and opened many
 * times); stored blocks when compression is turned off or zlib fails.
 */
#include "report/html_deflate.h"

#include <string.h>
#include <zlib.h>

/* Stored blocks: a byte-aligned 3-bit header (BFINAL, type 00), then
 * LEN and its complement, then LEN bytes; 65535 bytes at most each. */
static void deflate_stored(const uint8_t *in, size_t len, struct html_buf *out)
{
	do {
		size_t n = len > 65535 ? 65535 : len;
		uint8_t head[5] = { len == n ? 1 : 0, (uint8_t)n, (uint8_t)(n >> 8),
				    (uint8_t)~n, (uint8_t)(~n >> 8) };
		html_buf_add(out, head, sizeof(head));
		html_buf_add(out, in, n);
		in += n;
		len -= n;
	} while (len);
}

static int deflate_zlib(const uint8_t *in, size_t len, struct html_buf *out)
{
	z_stream z;

	if (len > (1u << 30))
		return -1;
	memset(&z, 0, sizeof(z));
	/* -15: raw deflate, no zlib header or checksum */
	if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	/* With deflateBound() bytes of room one Z_FINISH call completes. */
	size_t room = deflateBound(&z, (uLong)len);
	html_buf_reserve(out, room);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = out->data + out->len;
	z.avail_out = (uInt)room;
	int rc = deflate(&z, Z_FINISH);
	if (rc == Z_STREAM_END)
		out->len += room - z.avail_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

int html_deflate(const uint8_t *in, size_t len, int compress, struct html_buf *out)
{
	if (compress && deflate_zlib(in, len, out) == 0)
		return 1;
	deflate_stored(in, len, out);
	return 0;
}
