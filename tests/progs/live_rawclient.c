/*
 * A misbehaving control-socket client for the security tests:
 *   live_rawclient SOCKET garbage|garbage-more|oversize|badversion|unknown|vanish|slow
 * prints the first line of the answer, or "(no answer)".  garbage-more
 * sends 256 KB more after the bad header, more than the socket holds.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void header(unsigned char *h, unsigned version, unsigned length)
{
	memcpy(h, "CSCL", 4);
	h[4] = version & 0xff;
	h[5] = version >> 8;
	h[6] = length & 0xff;
	h[7] = length >> 8;
}

int main(int argc, char **argv)
{
	struct sockaddr_un addr;
	unsigned char msg[64];
	size_t len = 0;
	char answer[4200];

	if (argc != 3 || strlen(argv[1]) >= sizeof(addr.sun_path))
		return 2;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	strcpy(addr.sun_path, argv[1]);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		perror("connect");
		return 1;
	}
	const char *what = argv[2];
	if (!strcmp(what, "garbage")) {
		memcpy(msg, "GET / HTTP/1.0\r\n\r\n", 18);
		len = 18;
	} else if (!strcmp(what, "garbage-more")) {
		static char more[256 << 10];
		memset(more, 'x', sizeof(more));
		send(fd, "GET / HTTP/1.0\r\n\r\n", 18, MSG_NOSIGNAL);
		for (size_t sent = 0; sent < sizeof(more);) {
			ssize_t n = send(fd, more + sent, sizeof(more) - sent, MSG_NOSIGNAL);
			if (n <= 0)
				break;
			sent += (size_t)n;
		}
	} else if (!strcmp(what, "oversize")) {
		header(msg, 1, 65535);
		len = 8;
	} else if (!strcmp(what, "badversion")) {
		header(msg, 99, 6);
		memcpy(msg + 8, "status", 6);
		len = 14;
	} else if (!strcmp(what, "unknown")) {
		header(msg, 1, 7);
		memcpy(msg + 8, "rm -rf!", 7);
		len = 15;
	} else if (!strcmp(what, "vanish")) {
		header(msg, 1, 40);	/* promises 40 bytes, sends 3, leaves */
		memcpy(msg + 8, "sta", 3);
		send(fd, msg, 11, 0);
		close(fd);
		puts("(vanished)");
		return 0;
	} else if (!strcmp(what, "slow")) {
		header(msg, 1, 6);
		send(fd, msg, 4, 0);	/* half a header, then silence */
		len = 0;
	} else {
		return 2;
	}
	if (len)
		send(fd, msg, len, MSG_NOSIGNAL);
	ssize_t n = recv(fd, answer, sizeof(answer) - 1, MSG_WAITALL);
	if (n <= 8) {
		puts("(no answer)");
		return 0;
	}
	answer[n] = '\0';
	answer[strcspn(answer + 8, "\n") + 8] = '\0';
	puts(answer + 8);
	return 0;
}
