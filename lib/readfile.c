#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

int read_file(const char *path, size_t max, char **out, size_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

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
	if (!S_ISREG(st.st_mode) || (max && (size_t)st.st_size > max)) {
		close(fd);
		errno = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
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

int open_regular(const char *path, const char **why)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &sb) < 0) {
		*why = strerror(errno);
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		*why = "not a regular file";
		close(fd);
		return -1;
	}
	return fd;
}
