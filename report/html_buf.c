#include "report/html_buf.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void html_buf_init(struct html_buf *b)
{
	b->data = NULL;
	b->len = b->alloc = 0;
}

void html_buf_release(struct html_buf *b)
{
	free(b->data);
	html_buf_init(b);
}

void html_buf_reserve(struct html_buf *b, size_t more)
{
	ALLOC_GROW(b->data, b->len + more, b->alloc);
}

void html_buf_add(struct html_buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	html_buf_reserve(b, len);
	memcpy(b->data + b->len, data, len);
	b->len += len;
}

void html_buf_addstr(struct html_buf *b, const char *s)
{
	html_buf_add(b, s, strlen(s));
}

void html_buf_addch(struct html_buf *b, uint8_t c)
{
	html_buf_reserve(b, 1);
	b->data[b->len++] = c;
}

void html_buf_uvarint(struct html_buf *b, uint64_t v)
{
	html_buf_reserve(b, 10);
	while (v >= 0x80) {
		b->data[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->data[b->len++] = (uint8_t)v;
}

void html_buf_svarint(struct html_buf *b, int64_t v)
{
	html_buf_uvarint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void html_buf_base64(struct html_buf *b, const uint8_t *in, size_t len)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i = 0;

	html_buf_reserve(b, (len + 2) / 3 * 4);
	uint8_t *o = b->data + b->len;
	for (; i + 3 <= len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		*o++ = alphabet[v >> 18];
		*o++ = alphabet[(v >> 12) & 63];
		*o++ = alphabet[(v >> 6) & 63];
		*o++ = alphabet[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < len ? (uint32_t)in[i + 1] << 8 : 0);
		*o++ = alphabet[v >> 18];
		*o++ = alphabet[(v >> 12) & 63];
		*o++ = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
		*o++ = '=';
	}
	b->len = (size_t)(o - b->data);
}

void html_buf_escape(struct html_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': html_buf_addstr(b, "&amp;"); break;
		case '<': html_buf_addstr(b, "&lt;"); break;
		case '>': html_buf_addstr(b, "&gt;"); break;
		case '"': html_buf_addstr(b, "&quot;"); break;
		case '\'': html_buf_addstr(b, "&#39;"); break;
		default: html_buf_addch(b, (uint8_t)*s);
		}
	}
}
