/*
 * Fuzz harness for the CodeScape .prf reader: parse, build a profile
 * from what parsed, and check the round trips: a parsed file written and
 * parsed again must write the same bytes, and the profile it gave (with
 * its counter, if any) must write a file that parses.  Any input must end in a clean
 * error or a profile, never a crash, a hang or a huge allocation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/prf.h"
#include "model/cct.h"
#include "model/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prf_file f, g;
	char err[256];

	if (prf_parse(data, size, &f, err, sizeof(err)) == 0) {
		struct cct *t;
		struct profile *p = prf_file_to_profile(&f, &t);
		struct prf_file w, r;
		size_t wlen;
		prf_from_profile(p, t, 0, &w);
		uint8_t *wb = prf_encode(&w, &wlen);
		if (prf_parse(wb, wlen, &r, err, sizeof(err)) != 0)
			abort();
		prf_file_release(&r);
		prf_file_release(&w);
		free(wb);
		profile_free(p);
		cct_free(t);
		size_t len, len2;
		uint8_t *a = prf_encode(&f, &len);
		if (prf_parse(a, len, &g, err, sizeof(err)) != 0)
			abort();
		uint8_t *b = prf_encode(&g, &len2);
		if (len != len2 || memcmp(a, b, len))
			abort();
		free(a);
		free(b);
		prf_file_release(&g);
	}
	prf_file_release(&f);
	return 0;
}
