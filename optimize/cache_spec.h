/*
 * Instruction cache geometries: parsing "32K", "8K,2,32", and reading the
 * host's L1 instruction cache from sysfs.
 */
#ifndef CALLSCOPE_OPTIMIZE_CACHE_SPEC_H
#define CALLSCOPE_OPTIMIZE_CACHE_SPEC_H

#include <stdint.h>

struct cache_spec {
	uint64_t size;		/* bytes */
	unsigned ways;
	unsigned line;		/* bytes */
};

/* Parses a byte count with an optional K, M or G suffix (powers of 1024). */
int cache_parse_size(const char *s, uint64_t *out);

/*
 * Parses "SIZE,WAYS,LINE" ("8K,2,32").  Returns 0, or -1 with the reason in
 * *WHY when the geometry is impossible (sets must be a power of two, the
 * line a power of two of at least 16 bytes, as cachegrind requires).
 */
int cache_parse_spec(const char *s, struct cache_spec *out, const char **why);

/* The host's L1 instruction cache; returns 0, or -1 (OUT then 32K,8,64). */
int cache_host_l1i(struct cache_spec *out);

/* "32K/8/64" into BUF. */
const char *cache_spec_label(const struct cache_spec *c, char *buf, unsigned len);

#endif
