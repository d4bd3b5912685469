/*
 * A bounds-checked little-endian reader over a byte range.  Every read
 * checks against the end pointer first; the first failure sticks and
 * remembers where it happened, so a parser reads fields in a row and
 * checks once.
 */
#ifndef CALLSCOPE_FORMATS_CURSOR_H
#define CALLSCOPE_FORMATS_CURSOR_H

#include <stddef.h>
#include <stdint.h>

struct cursor {
	const uint8_t *p;
	const uint8_t *end;
	const uint8_t *origin;	/* offset 0 of the file, for messages */
	const char *failed;	/* what went wrong first, or NULL */
	const uint8_t *failed_at;
};

static inline void cursor_init(struct cursor *c, const uint8_t *origin,
			       const uint8_t *p, const uint8_t *end)
{
	c->origin = origin;
	c->p = p;
	c->end = end;
	c->failed = NULL;
	c->failed_at = NULL;
}

static inline void cursor_fail(struct cursor *c, const char *why)
{
	if (!c->failed) {
		c->failed = why;
		c->failed_at = c->p;
	}
}

static inline size_t cursor_left(const struct cursor *c)
{
	return c->failed ? 0 : (size_t)(c->end - c->p);
}

static inline const uint8_t *cursor_bytes(struct cursor *c, size_t n, const char *what)
{
	if (c->failed || (size_t)(c->end - c->p) < n) {
		cursor_fail(c, what);
		return NULL;
	}
	const uint8_t *r = c->p;
	c->p += n;
	return r;
}

static inline uint32_t cursor_u32(struct cursor *c, const char *what)
{
	const uint8_t *b = cursor_bytes(c, 4, what);
	if (!b)
		return 0;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline uint64_t cursor_u64(struct cursor *c, const char *what)
{
	uint64_t lo = cursor_u32(c, what);
	uint64_t hi = cursor_u32(c, what);
	return lo | hi << 32;
}

/* A u32 length and that many bytes; returns them (borrowed) or NULL. */
static inline const uint8_t *cursor_blob(struct cursor *c, size_t *len, const char *what)
{
	uint32_t n = cursor_u32(c, what);
	const uint8_t *b = cursor_bytes(c, n, what);
	*len = b ? n : 0;
	return b;
}

#endif
