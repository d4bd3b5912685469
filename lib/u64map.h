/*
 * An open-addressing map from 64-bit keys to 32-bit values: function
 * numbers by address, arcs by (caller, callee), call-path nodes by
 * (parent, function) — the offline tools' one lookup table of that kind.
 */
#ifndef CALLSCOPE_LIB_U64MAP_H
#define CALLSCOPE_LIB_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint32_t *values;	/* value + 1; 0 marks an empty slot */
	size_t mask, used;
};

void u64map_init(struct u64map *m);
void u64map_release(struct u64map *m);
/* Returns 1 with *VALUE when KEY is there, else 0. */
int u64map_get(const struct u64map *m, uint64_t key, uint32_t *value);
/* Sets KEY to VALUE (below UINT32_MAX), growing the table as needed. */
void u64map_put(struct u64map *m, uint64_t key, uint32_t value);

/* Two 32-bit halves as one key. */
static inline uint64_t u64map_pair(uint32_t a, uint32_t b)
{
	return (uint64_t)a << 32 | b;
}

#endif
