/*
 * A server that closes every descriptor but 0-2, then listens on 16
 * sockets (which take the numbers it closed), connects to each, and
 * accepts after a pause: every connection must be there for it.  A
 * profiler's thread that watched a number it had used before would
 * take a connection meant for the program.
 */
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SOCKETS 16

__attribute__((noinline)) int step(int x)
{
	return x + 1;
}

static void address(struct sockaddr_un *a, int i)
{
	*a = (struct sockaddr_un){ .sun_family = AF_UNIX };
	/* abstract names: nothing to clean up */
	snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "closed-fds-%d-%d", getpid(), i);
}

int main(void)
{
	int listening[SOCKETS], accepted = 0, sum = 0;
	struct sockaddr_un a;

	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	for (int i = 0; i < SOCKETS; i++) {
		address(&a, i);
		listening[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (bind(listening[i], (struct sockaddr *)&a, sizeof(a)) != 0 ||
		    listen(listening[i], 4) != 0) {
			perror("listen");
			return 2;
		}
	}
	for (int i = 0; i < SOCKETS; i++) {
		address(&a, i);
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&a, sizeof(a)) != 0) {
			perror("connect");
			return 2;
		}
	}
	for (int i = 0; i < 1000; i++)
		sum += step(i);
	usleep(1500 * 1000);	/* time for any watching thread to look */
	for (int i = 0; i < SOCKETS; i++)
		if (accept(listening[i], NULL, NULL) >= 0)
			accepted++;
	printf("accepted %d of %d\n", accepted, SOCKETS);
	return accepted == SOCKETS && sum > 0 ? 0 : 1;
}
