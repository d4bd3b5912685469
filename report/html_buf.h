/*
 * A growable byte buffer and the encodings the HTML report's data is made
 * of: LEB128 varints (small numbers in one byte), zigzag for signed
 * deltas, and base64 for putting the compressed bytes into the page.
 */
#ifndef CALLSCOPE_REPORT_HTML_BUF_H
#define CALLSCOPE_REPORT_HTML_BUF_H

#include <stddef.h>
#include <stdint.h>

struct html_buf {
	uint8_t *data;		/* owned; not NUL-ended */
	size_t len, alloc;
};

void html_buf_init(struct html_buf *b);
void html_buf_release(struct html_buf *b);
/* Makes room for MORE bytes past len (data + len is then writable). */
void html_buf_reserve(struct html_buf *b, size_t more);
void html_buf_add(struct html_buf *b, const void *data, size_t len);
void html_buf_addstr(struct html_buf *b, const char *s);
void html_buf_addch(struct html_buf *b, uint8_t c);
/* Unsigned LEB128: 7 bits a byte, low first, high bit = more follows. */
void html_buf_uvarint(struct html_buf *b, uint64_t v);
/* Zigzag then LEB128, so small negative numbers stay small. */
void html_buf_svarint(struct html_buf *b, int64_t v);
/* Appends the base64 (RFC 4648, padded) of DATA. */
void html_buf_base64(struct html_buf *b, const uint8_t *data, size_t len);
/* Appends S with & < > " ' written as character references. */
void html_buf_escape(struct html_buf *b, const char *s);

#endif
