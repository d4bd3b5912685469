/*
 * The control socket's wire format, shared by the runtime (runtime/control.c)
 * and `callscope live` (cli/live_socket.c).
 *
 * A message is an 8-byte header, then LENGTH bytes of ASCII text:
 *
 *     "CSCL"  u16 version (little-endian)  u16 length
 *
 * A request's text is one command word (status, start, stop, flush, reset,
 * snapshot) of at most CONTROL_REQUEST_MAX bytes.  The answer's text starts
 * with "ok" or "error CODE WHAT" on its first line (CODE is one of
 * callscope.h's negative codes), then "key=value" lines.  One request per
 * connection: the runtime closes it after answering.
 *
 * The socket is DIR/PID.sock where DIR is $XDG_RUNTIME_DIR/callscope, or
 * /tmp/callscope-UID when XDG_RUNTIME_DIR is unset, not absolute or not
 * usable; DIR is a 0700 directory of the user.
 */
#ifndef CALLSCOPE_COMMON_CONTROL_PROTO_H
#define CALLSCOPE_COMMON_CONTROL_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define CONTROL_MAGIC "CSCL"
#define CONTROL_VERSION 1
#define CONTROL_HEADER 8
#define CONTROL_REQUEST_MAX 256
#define CONTROL_REPLY_MAX 4096
/* seconds a peer may take to send or receive one message */
#define CONTROL_TIMEOUT_S 2

static inline void control_header_put(uint8_t *h, uint16_t length)
{
	h[0] = 'C';
	h[1] = 'S';
	h[2] = 'C';
	h[3] = 'L';
	h[4] = CONTROL_VERSION & 0xff;
	h[5] = CONTROL_VERSION >> 8;
	h[6] = (uint8_t)(length & 0xff);
	h[7] = (uint8_t)(length >> 8);
}

/*
 * Checks a received header.  Returns 0 and the text length, -1 for a
 * header that is not ours, -2 for another version, -3 for a length over MAX.
 */
static inline int control_header_get(const uint8_t *h, uint16_t max, uint16_t *length)
{
	if (h[0] != 'C' || h[1] != 'S' || h[2] != 'C' || h[3] != 'L')
		return -1;
	if ((uint16_t)(h[4] | h[5] << 8) != CONTROL_VERSION)
		return -2;
	*length = (uint16_t)(h[6] | h[7] << 8);
	return *length > max ? -3 : 0;
}

enum control_command {
	CONTROL_UNKNOWN = 0,
	CONTROL_STATUS,
	CONTROL_START,
	CONTROL_STOP,
	CONTROL_FLUSH,
	CONTROL_RESET,
	CONTROL_SNAPSHOT,
};

/* The command in a request's TEXT (LEN bytes, not NUL-terminated; trailing
 * blanks and newlines ignored), or CONTROL_UNKNOWN. */
static inline enum control_command control_command_of(const char *text, size_t len)
{
	static const char *const names[] = { "status", "start", "stop", "flush", "reset",
					     "snapshot" };

	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = 0;
		while (names[i][n])
			n++;
		if (n != len)
			continue;
		size_t k = 0;
		while (k < n && names[i][k] == text[k])
			k++;
		if (k == n)
			return (enum control_command)(i + 1);
	}
	return CONTROL_UNKNOWN;
}

#endif
