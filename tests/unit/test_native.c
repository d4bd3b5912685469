/*
 * The native reader's whole-file checks, on files written by the native
 * writer into a temporary file: a sealed file ends with an END section
 * whose sums cover every byte before it, so a file cut at a section
 * boundary or changed in one bit is refused, while a file of minor
 * version 0 (no END section) is read as it always was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/native.h"
#include "formats/native_checksum.h"
#include "session_payload.h"

struct file {
	uint8_t *bytes;
	size_t size;
	size_t end_at;		/* offset of the END section's header */
};

/* Header, SESSION and an unknown section; then END unless NO_END. */
static struct file write_file(int no_end)
{
	FILE *f = tmpfile();
	uint8_t session[128];
	static const uint8_t future[5] = { 1, 2, 3, 4, 5 };
	struct file out;

	assert_non_null(f);
	assert_int_equal(data_write_header(f), 0);
	assert_int_equal(data_write_section(f, SECTION_SESSION, session,
					    session_payload(session, sizeof(session))), 0);
	assert_int_equal(data_write_section(f, (enum section_type)99, future, sizeof(future)), 0);
	assert_int_equal(fflush(f), 0);
	out.end_at = (size_t)ftell(f);
	if (!no_end)
		assert_int_equal(data_write_end(f), 0);
	out.size = (size_t)ftell(f);
	out.bytes = malloc(out.size);
	rewind(f);
	assert_int_equal(fread(out.bytes, 1, out.size, f), out.size);
	fclose(f);
	return out;
}

/* Parses BYTES; returns 0 or -1 with the message in ERR. */
static int parse(const uint8_t *bytes, size_t size, char *err, size_t errlen)
{
	struct data_file df;
	int rc = data_file_parse(bytes, size, &df, err, errlen);
	data_file_release(&df);
	return rc;
}

static void test_sealed_file_reads(void **state)
{
	(void)state;
	struct file f = write_file(0);
	char err[256] = "";

	/* END: 16-byte header, then the two sums */
	assert_int_equal(f.size, f.end_at + SECTION_HEADER_SIZE + 16);
	assert_int_equal(parse(f.bytes, f.size, err, sizeof(err)), 0);
	free(f.bytes);
}

static void test_cut_at_every_boundary_refused(void **state)
{
	(void)state;
	struct file f = write_file(0);
	char err[256];

	/* every cut, section boundaries included, is an error */
	for (size_t n = 0; n < f.size; n++) {
		err[0] = '\0';
		assert_int_equal(parse(f.bytes, n, err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
	}
	assert_int_equal(parse(f.bytes, f.end_at, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "before its END section"));
	free(f.bytes);
}

static void test_every_flipped_bit_refused(void **state)
{
	(void)state;
	struct file f = write_file(0);
	char err[256];

	for (size_t i = 0; i < f.size; i++) {
		for (int bit = 0; bit < 8; bit++) {
			f.bytes[i] ^= (uint8_t)(1u << bit);
			assert_int_equal(parse(f.bytes, f.size, err, sizeof(err)), -1);
			f.bytes[i] ^= (uint8_t)(1u << bit);
		}
	}
	assert_int_equal(parse(f.bytes, f.size, err, sizeof(err)), 0);
	free(f.bytes);
}

static void test_data_after_end_refused(void **state)
{
	(void)state;
	struct file f = write_file(0);
	uint8_t *longer = malloc(f.size + 20);
	char err[256];

	memcpy(longer, f.bytes, f.size);
	memset(longer + f.size, 0, 20);	/* a well-formed empty section of type 0, and more */
	assert_int_equal(parse(longer, f.size + 20, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "after the END section"));
	free(longer);
	free(f.bytes);
}

/* Minor version 0 had no END section: such files still read. */
static void test_minor_version_0_without_end(void **state)
{
	(void)state;
	struct file f = write_file(1);
	char err[256];

	assert_int_equal(parse(f.bytes, f.size, err, sizeof(err)), -1);
	f.bytes[10] = 0;	/* minor version, little-endian u16 at offset 10 */
	f.bytes[11] = 0;
	assert_int_equal(parse(f.bytes, f.size, err, sizeof(err)), 0);
	free(f.bytes);
}

/* An END section without sums (the writer could not read its output
 * back) marks the end without a check. */
static void test_end_without_sums(void **state)
{
	(void)state;
	struct file f = write_file(1);
	FILE *mem;
	char *buf = NULL;
	size_t len = 0;
	char err[256];

	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	assert_int_equal(fwrite(f.bytes, 1, f.size, mem), f.size);
	assert_int_equal(data_write_end(mem), 0);
	fclose(mem);
	assert_int_equal(len, f.size + SECTION_HEADER_SIZE);
	assert_int_equal(parse((const uint8_t *)buf, len, err, sizeof(err)), 0);
	free(buf);
	free(f.bytes);
}

/* The sums as docs/FORMAT.md defines them, word by word. */
static void test_checksum_definition(void **state)
{
	(void)state;
	uint8_t bytes[19];
	uint64_t sum = 0, weighted = 0;

	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)(i * 37 + 11);
	for (size_t i = 0; i < sizeof(bytes); i += 8) {
		uint64_t w = 0;
		for (size_t k = 0; k < 8 && i + k < sizeof(bytes); k++)
			w |= (uint64_t)bytes[i + k] << (8 * k);
		sum += w;
		weighted += sum;
	}
	struct data_checksum c = data_checksum(bytes, sizeof(bytes));
	assert_true(c.sum == sum);
	assert_true(c.weighted == weighted);
	/* taken in pieces, each but the last a multiple of 8 bytes long */
	struct data_checksum part = data_checksum(bytes, 16);
	part = data_checksum_more(part, bytes + 16, sizeof(bytes) - 16);
	assert_true(part.sum == sum);
	assert_true(part.weighted == weighted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sealed_file_reads),
		cmocka_unit_test(test_cut_at_every_boundary_refused),
		cmocka_unit_test(test_every_flipped_bit_refused),
		cmocka_unit_test(test_data_after_end_refused),
		cmocka_unit_test(test_minor_version_0_without_end),
		cmocka_unit_test(test_end_without_sums),
		cmocka_unit_test(test_checksum_definition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
