/*
 * The checksum a sealed data file carries in its END section (see
 * docs/FORMAT.md): a Fletcher-style pair of sums over the file's bytes
 * taken as little-endian 64-bit words.  It is there to catch a file
 * damaged after it was written (a flipped bit, a bad copy), which no size
 * or offset check can see inside an event stream; it is no defence
 * against someone forging a file.  Both sums wrap modulo 2^64: any single
 * flipped bit changes the first, and the second, which weighs every word
 * by its position, catches swapped or shifted words.  One addition per
 * word each, so checking costs a fraction of reading the file.
 */
#ifndef CALLSCOPE_FORMATS_NATIVE_CHECKSUM_H
#define CALLSCOPE_FORMATS_NATIVE_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

struct data_checksum {
	uint64_t sum;		/* of the words */
	uint64_t weighted;	/* of the running sums */
};

/* The checksum of the N bytes at P; a last partial word is zero-padded. */
struct data_checksum data_checksum(const uint8_t *p, size_t n);

/* C, the checksum of bytes before P whose count is a multiple of 8,
 * extended over the N bytes at P: a file's checksum taken in pieces. */
struct data_checksum data_checksum_more(struct data_checksum c, const uint8_t *p, size_t n);

#endif
