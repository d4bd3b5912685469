/*
 * Sealing a staging directory in place (the first thread file becomes the
 * data file) against the copying seal of the same directory: both read
 * back as the same recording, the first stream is left where it lay, and
 * at no step of a seal that fails is anything recorded lost: a failed
 * rename leaves a staging directory that reads as the sealed file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/native.h"
#include "formats/seal.h"
#include "readfile.h"

#define STREAM_LEN 10000

/* A pid no process has: a child that has been waited for. */
static uint32_t gone_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return (uint32_t)pid;
}

static void write_whole(const char *path, const void *bytes, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, len), (ssize_t)len);
	close(fd);
}

/* The process file of PID: one PROCESS section, as the runtime writes it. */
static void write_process_file(const char *dir, uint32_t pid)
{
	uint8_t buf[256], payload[200];
	struct sec_builder p = { payload, payload + sizeof(payload), 0 };
	sec_put_u32(&p, pid);
	sec_put_u32(&p, 0);
	sec_put_u32(&p, 1);
	sec_put_u32(&p, 1);	/* CLOCK_MONOTONIC */
	sec_put_u64(&p, 100);
	sec_put_u64(&p, 100);
	sec_put_u32(&p, 0);
	sec_put_u32(&p, 0);
	sec_put_blob(&p, "/bin/prog", 9);
	sec_put_blob(&p, "prog", 5);
	assert_false(p.overflow);
	size_t len = (size_t)(p.p - payload);
	struct sec_builder b = { buf, buf + sizeof(buf), 0 };
	sec_put_u32(&b, SECTION_PROCESS);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, len);
	sec_put_bytes(&b, payload, len);
	assert_false(b.overflow);
	char path[512];
	snprintf(path, sizeof(path), "%s/p-%u-0.sec", dir, pid);
	write_whole(path, buf, (size_t)(b.p - buf));
}

/* A thread file of PID and TID holding a stream of LEN bytes from SEED,
 * as the runtime leaves it (header page, then the stream). */
static void write_thread_file(const char *dir, uint32_t pid, uint32_t tid, size_t len,
			      unsigned seed)
{
	size_t size = THREAD_FILE_DATA_OFFSET + len;
	uint8_t *bytes = calloc(1, size);
	struct thread_file_header h;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, THREAD_FILE_MAGIC, 8);
	h.version = THREAD_FILE_VERSION;
	h.pid = pid;
	h.tid = tid;
	h.clock = 1;
	h.start_time = 100 + tid;
	h.committed_end = size;
	h.lost_events = tid;
	h.events_written = 7 * tid;
	memcpy(bytes, &h, sizeof(h));
	for (size_t i = 0; i < len; i++)
		bytes[THREAD_FILE_DATA_OFFSET + i] = (uint8_t)(i * seed + tid);
	char path[512];
	snprintf(path, sizeof(path), "%s/t-%u-0-%u-0.buf", dir, pid, tid);
	write_whole(path, bytes, size);
	free(bytes);
}

struct fixture {
	char dir[64];		/* holds the staging directory and the output */
	char staging[96];
	char out[128];
	uint32_t pid;
	struct seal_session s;
	char *argv[2];
};

/* A staging directory of two threads of a finished process; ARG_LEN, the
 * length of the session's one argument, decides whether the session and
 * process sections fit in the first thread file's head page. */
static void make_staging(struct fixture *fx, size_t arg_len, uint32_t pid)
{
	memset(fx, 0, sizeof(*fx));
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/callscope-seal-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->staging, sizeof(fx->staging), "%s/.callscope-st", fx->dir);
	snprintf(fx->out, sizeof(fx->out), "%s/out.data", fx->dir);
	assert_int_equal(mkdir(fx->staging, 0700), 0);
	fx->pid = pid;
	write_process_file(fx->staging, pid);
	write_thread_file(fx->staging, pid, pid, STREAM_LEN, 3);
	write_thread_file(fx->staging, pid, pid + 1, STREAM_LEN / 2, 5);
	fx->argv[0] = calloc(1, arg_len + 1);
	memset(fx->argv[0], 'a', arg_len);
	fx->s.mode = DATA_MODE_TRACE;
	fx->s.clock = 1;
	fx->s.cwd = "/tmp";
	fx->s.argc = 1;
	fx->s.argv = fx->argv;
	fx->s.mono_end = fx->s.tsc_end = 1000;
}

static void remove_fixture(struct fixture *fx)
{
	char path[256];

	seal_remove_staging(fx->staging);
	snprintf(path, sizeof(path), "%s.old", fx->out);
	unlink(path);
	unlink(fx->out);
	rmdir(fx->dir);
	free(fx->argv[0]);
}

/* Asserts that the data files A and B hold the same processes and
 * threads (a staging directory read without record's session has a
 * stand-in one). */
static void assert_same_recording(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	struct data_file x, y;
	char err[256];

	assert_int_equal(data_file_parse(a, alen, &x, err, sizeof(err)), 0);
	if (data_file_parse(b, blen, &y, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(x.nprocesses, y.nprocesses);
	assert_string_equal(x.processes[0].exe, y.processes[0].exe);
	assert_int_equal(x.nthreads, y.nthreads);
	for (size_t i = 0; i < x.nthreads; i++) {
		assert_int_equal(x.threads[i].tid, y.threads[i].tid);
		assert_int_equal(x.threads[i].start_time, y.threads[i].start_time);
		assert_int_equal(x.threads[i].lost_events, y.threads[i].lost_events);
		assert_int_equal(x.threads[i].events_written, y.threads[i].events_written);
		assert_int_equal(x.threads[i].stream_len, y.threads[i].stream_len);
		assert_memory_equal(x.threads[i].stream, y.threads[i].stream,
				    x.threads[i].stream_len);
	}
	data_file_release(&x);
	data_file_release(&y);
}

static int file_exists(const char *dir, const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

/* Seals FX in place and compares the file with the copying seal's. */
static void check_in_place(struct fixture *fx, int front_in_page)
{
	uint8_t *copy;
	size_t copy_len;
	char *sealed, name[64];
	size_t sealed_len;
	struct seal_result res;
	struct data_file df;
	char err[256];

	assert_int_equal(seal_to_memory(fx->staging, &copy, &copy_len), 0);
	assert_int_equal(seal_staging(fx->staging, fx->out, &fx->s, &res), 0);
	assert_int_equal(res.threads, 2);
	assert_int_equal(res.processes, 1);
	assert_int_equal(read_file(fx->out, 0, &sealed, &sealed_len), 0);
	assert_int_equal(res.bytes, sealed_len);
	/* the first stream stayed where the runtime wrote it */
	assert_int_equal(data_file_parse((uint8_t *)sealed, sealed_len, &df, err, sizeof(err)), 0);
	assert_int_equal(df.threads[0].stream_offset, THREAD_FILE_DATA_OFFSET);
	assert_int_equal(df.session.argc, 1);
	assert_int_equal(df.session.argv_len, 4 + strlen(fx->argv[0]));
	/* the session comes first when it fits in the head page */
	assert_int_equal((uint8_t)sealed[DATA_HEADER_SIZE] == SECTION_SESSION, front_in_page);
	data_file_release(&df);
	snprintf(name, sizeof(name), "t-%u-0-%u-0.buf", fx->pid, fx->pid);
	assert_false(file_exists(fx->staging, name));
	assert_same_recording(copy, copy_len, (uint8_t *)sealed, sealed_len);
	free(copy);
	free(sealed);
}

static void test_in_place_reads_as_copied(void **state)
{
	struct fixture fx;

	(void)state;
	make_staging(&fx, 10, gone_pid());
	check_in_place(&fx, 1);
	remove_fixture(&fx);
}

static void test_in_place_front_after_stream(void **state)
{
	struct fixture fx;

	(void)state;
	make_staging(&fx, 5000, gone_pid());
	check_in_place(&fx, 0);
	remove_fixture(&fx);
}

/* The rename into place fails (no such directory): the staging directory,
 * its first thread file now the data file, reads as the recording. */
static void test_failed_rename_keeps_recording(void **state)
{
	struct fixture fx;
	uint8_t *before, *after;
	size_t before_len, after_len;
	struct seal_result res;
	char out[256];

	(void)state;
	make_staging(&fx, 10, gone_pid());
	assert_int_equal(seal_to_memory(fx.staging, &before, &before_len), 0);
	snprintf(out, sizeof(out), "%s/no-such-dir/out.data", fx.dir);
	assert_int_equal(seal_staging(fx.staging, out, &fx.s, &res), -1);
	assert_true(seal_is_staging(fx.staging));
	assert_int_equal(seal_to_memory(fx.staging, &after, &after_len), 0);
	assert_same_recording(before, before_len, after, after_len);
	free(before);
	free(after);
	remove_fixture(&fx);
}

/* A thread file whose process still runs (a live snapshot) is copied,
 * never taken: the program may write into it still. */
static void test_live_process_copied(void **state)
{
	struct fixture fx;
	struct seal_result res;
	char name[64];

	(void)state;
	make_staging(&fx, 10, (uint32_t)getpid());
	assert_int_equal(seal_staging(fx.staging, fx.out, &fx.s, &res), 0);
	snprintf(name, sizeof(name), "t-%u-0-%u-0.buf", fx.pid, fx.pid);
	assert_true(file_exists(fx.staging, name));
	remove_fixture(&fx);
}

/* An output on another file system (a tmpfs) takes the copy: a file
 * cannot be renamed there. */
static void test_other_file_system_copied(void **state)
{
	struct fixture fx;
	struct seal_result res;
	struct stat a, b;
	char name[64], out[64];

	(void)state;
	make_staging(&fx, 10, gone_pid());
	if (stat("/dev/shm", &b) != 0 || stat(fx.dir, &a) != 0 || a.st_dev == b.st_dev) {
		remove_fixture(&fx);
		skip();
	}
	snprintf(out, sizeof(out), "/dev/shm/callscope-seal-%d.data", (int)getpid());
	assert_int_equal(seal_staging(fx.staging, out, &fx.s, &res), 0);
	snprintf(name, sizeof(name), "t-%u-0-%u-0.buf", fx.pid, fx.pid);
	assert_true(file_exists(fx.staging, name));
	assert_int_equal(res.threads, 2);
	unlink(out);
	remove_fixture(&fx);
}

/* Ids that cross a power of ten: the threads come out in run order, each
 * process's main thread first, not in the text order of their names. */
static void test_run_order_across_digits(void **state)
{
	struct fixture fx;
	uint8_t *bytes;
	size_t len;
	struct data_file df;
	char err[256];

	(void)state;
	make_staging(&fx, 10, 99998);	/* threads 99998 and 99999 */
	write_thread_file(fx.staging, fx.pid, 100000, STREAM_LEN / 4, 7);
	write_process_file(fx.staging, 100001);
	write_thread_file(fx.staging, 100001, 100001, STREAM_LEN / 4, 9);
	assert_int_equal(seal_to_memory(fx.staging, &bytes, &len), 0);
	assert_int_equal(data_file_parse(bytes, len, &df, err, sizeof(err)), 0);
	assert_int_equal(df.nprocesses, 2);
	assert_int_equal(df.processes[0].pid, 99998);
	assert_int_equal(df.nthreads, 4);
	assert_int_equal(df.threads[0].tid, 99998);
	assert_int_equal(df.threads[1].tid, 99999);
	assert_int_equal(df.threads[2].tid, 100000);
	assert_int_equal(df.threads[3].tid, 100001);
	data_file_release(&df);
	free(bytes);
	remove_fixture(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_place_reads_as_copied),
		cmocka_unit_test(test_in_place_front_after_stream),
		cmocka_unit_test(test_failed_rename_keeps_recording),
		cmocka_unit_test(test_live_process_copied),
		cmocka_unit_test(test_other_file_system_copied),
		cmocka_unit_test(test_run_order_across_digits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
