/*
 * stream_pages WAY DIR [MIB [CHUNK_MIB]]: what the pages of a thread's
 * event stream cost the kernel, without the hooks.  Writes a file of MIB
 * MiB (default 88, a trace of the Lua benchmark) in DIR as the runtime
 * does (runtime/thread_buffer.c): a window of CHUNK_MIB (default 8)
 * reserved, mapped shared, made ready WAY, written one store per cache
 * line, unmapped, the next one starting where it ended.  Prints the CPU
 * time (user + system) in ms of the whole, and of the copy alone when WAY
 * copies the file to the disk afterwards (a stream kept on tmpfs that the
 * recording must still receive).
 *
 *   populate       posix_fallocate, MADV_POPULATE_WRITE (the runtime
 *                  before zeros were written)
 *   zeros          posix_fallocate, zeros written over the window, then
 *                  MADV_POPULATE_WRITE (the runtime now)
 *   faults         posix_fallocate only: pages faulted in as written
 *   populate+copy  populate, then the file sent to ./stream-copy (the
 *                  current directory, on the disk) with sendfile
 *   zeros+copy     zeros, then the same copy
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define PAGE 4096u

static const uint8_t zero_page[PAGE] __attribute__((aligned(PAGE)));

static double cpu_ms(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 +
	       (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e3;
}

static void write_zeros(int fd, uint64_t off, uint64_t len)
{
	struct iovec iov[256];

	for (int i = 0; i < 256; i++)
		iov[i] = (struct iovec){ (void *)zero_page, PAGE };
	for (uint64_t end = off + len; off < end;) {
		uint64_t pages = (end - off) / PAGE;
		ssize_t w = pwritev(fd, iov, pages < 256 ? (int)pages : 256, (off_t)off);
		if (w <= 0) {
			perror("stream_pages: pwritev");
			exit(1);
		}
		off += (uint64_t)w;
	}
}

static void copy_to_disk(int fd, uint64_t len)
{
	int out = open("stream-copy", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	off_t from = 0;

	if (out < 0) {
		perror("stream_pages: stream-copy");
		exit(1);
	}
	while ((uint64_t)from < len)
		if (sendfile(out, fd, &from, len - (uint64_t)from) <= 0) {
			perror("stream_pages: sendfile");
			exit(1);
		}
	close(out);
	unlink("stream-copy");
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: stream_pages populate|zeros|faults|populate+copy|zeros+copy "
				"DIR [MIB [CHUNK_MIB]]\n");
		return 2;
	}
	const char *way = argv[1];
	int zeros = !strncmp(way, "zeros", 5), faults = !strcmp(way, "faults");
	int copy = strstr(way, "+copy") != NULL;
	if (!zeros && !faults && strncmp(way, "populate", 8)) {
		fprintf(stderr, "stream_pages: unknown way '%s'\n", way);
		return 2;
	}
	uint64_t total = (argc > 3 ? strtoull(argv[3], NULL, 10) : 88) << 20;
	uint64_t chunk = (argc > 4 ? strtoull(argv[4], NULL, 10) : 8) << 20;
	char path[4096];
	snprintf(path, sizeof(path), "%s/stream-pages-%d.buf", argv[2], (int)getpid());
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || chunk == 0) {
		fprintf(stderr, "stream_pages: cannot create '%s': %s\n", path, strerror(errno));
		return 1;
	}
	double began = cpu_ms();
	for (uint64_t off = PAGE; off < PAGE + total; off += chunk) {
		int rc = posix_fallocate(fd, (off_t)off, (off_t)chunk);
		if (rc) {
			fprintf(stderr, "stream_pages: posix_fallocate: %s\n", strerror(rc));
			return 1;
		}
		uint8_t *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
		if (p == MAP_FAILED) {
			perror("stream_pages: mmap");
			return 1;
		}
		if (zeros)
			write_zeros(fd, off, chunk);
		if (!faults)
			madvise(p, chunk, MADV_POPULATE_WRITE);
		for (uint64_t i = 0; i < chunk; i += 64)
			p[i] = 1;
		munmap(p, chunk);
	}
	double streamed = cpu_ms();
	if (copy)
		copy_to_disk(fd, PAGE + total);
	double done = cpu_ms();
	unlink(path);
	printf("%.2f %.2f\n", done - began, done - streamed);
	return 0;
}
