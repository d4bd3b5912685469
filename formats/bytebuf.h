/*
 * A growable byte buffer for the binary writers (protobuf, .prf): append
 * only, out of memory is fatal (xalloc).
 */
#ifndef CALLSCOPE_FORMATS_BYTEBUF_H
#define CALLSCOPE_FORMATS_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct bytebuf {
	uint8_t *p;
	size_t len, alloc;
};

static inline void bytebuf_add(struct bytebuf *b, const void *src, size_t n)
{
	ALLOC_GROW(b->p, b->len + n, b->alloc);
	if (n)
		memcpy(b->p + b->len, src, n);
	b->len += n;
}

static inline void bytebuf_u8(struct bytebuf *b, uint8_t v)
{
	bytebuf_add(b, &v, 1);
}

static inline void bytebuf_release(struct bytebuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->alloc = 0;
}

#endif
