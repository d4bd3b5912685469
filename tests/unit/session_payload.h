/*
 * The smallest valid SESSION payload (times, trace mode, CLOCK_MONOTONIC,
 * no arguments), for the unit tests that write native files.
 */
#ifndef CALLSCOPE_TESTS_SESSION_PAYLOAD_H
#define CALLSCOPE_TESTS_SESSION_PAYLOAD_H

#include "formats/native.h"

/* Writes it into BUF (CAP bytes); returns its length. */
static inline size_t session_payload(uint8_t *buf, size_t cap)
{
	struct sec_builder b = { buf, buf + cap, 0 };

	for (int i = 0; i < 5; i++)
		sec_put_u64(&b, 1000u * (uint64_t)(i + 1));
	sec_put_u32(&b, 1);	/* trace */
	sec_put_u32(&b, 1);	/* CLOCK_MONOTONIC */
	sec_put_u32(&b, 0);
	sec_put_u32(&b, 0);
	sec_put_blob(&b, "/tmp", 4);
	sec_put_u32(&b, 0);
	assert_false(b.overflow);
	return (size_t)(b.p - buf);
}

#endif
