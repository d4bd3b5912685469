#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

int open_regular(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
		return fd;
fail:;
	int e = errno;
	close(fd);
	errno = e;
	return -1;
}

FILE *fopen_regular(const char *path)
{
	int fd = open_regular(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

const char *open_strerror(int err)
{
	return err == EINVAL ? "not a regular file" : strerror(err);
}

int read_file(const char *path, size_t max, char **out, size_t *size)
{
	struct stat st;
	int fd = open_regular(path);

	*out = NULL;
	*size = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (max && (size_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	size_t len = (size_t)st.st_size, got = 0;
	char *buf = xmalloc(len + 1);
	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;
			free(buf);
			close(fd);
			errno = e;
			return -1;
		}
		got += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	*size = len;
	return 0;
}

char *read_unsized_file(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = max < 4096 ? max : 4096;

	*len = 0;
	if (fd < 0)
		return NULL;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (*len == cap) {
			if (cap >= max)
				break;
			cap = cap < max / 2 ? cap * 2 : max;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t n = read(fd, buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	buf[*len] = '\0';
	return buf;
}
