#include "u64map.h"

#include <stdlib.h>

#include "xalloc.h"

#define INITIAL_SLOTS 1024

/* A full-avalanche mix, so keys built from small numbers spread too. */
static size_t slot_of(uint64_t k, size_t mask)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k & mask;
}

void u64map_init(struct u64map *m)
{
	m->mask = INITIAL_SLOTS - 1;
	m->used = 0;
	m->keys = xcalloc(INITIAL_SLOTS, sizeof(*m->keys));
	m->values = xcalloc(INITIAL_SLOTS, sizeof(*m->values));
}

void u64map_release(struct u64map *m)
{
	free(m->keys);
	free(m->values);
	m->keys = NULL;
	m->values = NULL;
}

static void grow(struct u64map *m)
{
	struct u64map old = *m;

	m->mask = m->mask * 2 + 1;
	m->used = 0;
	m->keys = xcalloc(m->mask + 1, sizeof(*m->keys));
	m->values = xcalloc(m->mask + 1, sizeof(*m->values));
	for (size_t i = 0; i <= old.mask; i++)
		if (old.values[i])
			u64map_put(m, old.keys[i], old.values[i] - 1);
	u64map_release(&old);
}

void u64map_put(struct u64map *m, uint64_t key, uint32_t value)
{
	size_t h = slot_of(key, m->mask);

	while (m->values[h] && m->keys[h] != key)
		h = (h + 1) & m->mask;
	if (!m->values[h])
		m->used++;
	m->keys[h] = key;
	m->values[h] = value + 1;
	if (m->used * 2 > m->mask)
		grow(m);
}

int u64map_get(const struct u64map *m, uint64_t key, uint32_t *value)
{
	size_t h = slot_of(key, m->mask);

	while (m->values[h]) {
		if (m->keys[h] == key) {
			*value = m->values[h] - 1;
			return 1;
		}
		h = (h + 1) & m->mask;
	}
	return 0;
}
