/*
 * Fuzz harness for the control socket's message decoder
 * (common/control_proto.h), what the runtime runs on every byte a client
 * sends: the header check and the command lookup.  Any input must be
 * refused or decoded, never read past its end; a decoded command's name,
 * re-encoded, must decode to the same command.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "", "status", "start", "stop", "flush", "reset",
					     "snapshot" };
	uint16_t len;

	if (size < CONTROL_HEADER)
		return 0;
	if (control_header_get(data, CONTROL_REQUEST_MAX, &len) != 0)
		return 0;
	if (len > CONTROL_REQUEST_MAX)
		abort();	/* the cap is the decoder's promise */
	if (len > size - CONTROL_HEADER)
		return 0;	/* the runtime would wait for the rest, then time out */
	/* a copy of exactly LEN bytes, so a read past it is caught */
	char *text = malloc(len ? len : 1);
	if (!text)
		return 0;
	memcpy(text, data + CONTROL_HEADER, len);
	enum control_command c = control_command_of(text, len);
	free(text);
	if (c != CONTROL_UNKNOWN) {
		uint8_t msg[CONTROL_HEADER + 16];
		size_t n = strlen(names[c]);
		uint16_t back;
		control_header_put(msg, (uint16_t)n);
		memcpy(msg + CONTROL_HEADER, names[c], n);
		if (control_header_get(msg, CONTROL_REQUEST_MAX, &back) != 0 || back != n ||
		    control_command_of((const char *)msg + CONTROL_HEADER, n) != c)
			abort();
	}
	return 0;
}
