/*
 * The process staging file p-PID-IMAGE.sec: a PROCESS section and one
 * OBJECT section per loaded object, written when the runtime starts, and a
 * PROCESS_END section at a normal exit (and under --patch a MOVED_CODE
 * section per patched object, patch/moved.c).  Objects loaded later (dlopen) are
 * described as the control thread notices them (a few times a second, and
 * before a snapshot), again at exit and before every dlclose(), so an
 * object the program loads and closes again keeps its name in the
 * recording.  Each section goes out in a single
 * write() so a crash leaves whole sections only.  Objects come from
 * dl_iterate_phdr, which gives the load bias and the build ID note from
 * memory: the analyzer checks it against the file on disk.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "sampler.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int process_fd = -1;
/* Its path and file: a program that closes the descriptor (and may get
 * its number again for a file of its own) has the sections written
 * through a descriptor opened again for each write. */
static char process_path[CONTRACT_PATH_MAX + 64];
static struct rt_file_id process_id;
/* The program's path, read once by process_write_start(). */
static char exe_path[CONTRACT_PATH_MAX];

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Appends N bytes at P to the process file. */
static int process_write(const uint8_t *p, size_t n)
{
	if (rt_fd_is(process_fd, &process_id))
		return write_all(process_fd, p, n);
	int fd = open(process_path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = write_all(fd, p, n);
	close(fd);
	return rc;
}

static int flush_section(struct sec_builder *b, uint8_t *buf)
{
	if (b->overflow)
		return -1;
	return process_write(buf, (size_t)(b->p - buf));
}

/* Puts the path of image N's process file p-PID-N.sec in PATH (of
 * CONTRACT_PATH_MAX + 64 bytes); NULL when it does not fit. */
static char *process_file_path(char *path, uint32_t n)
{
	char *end = path + CONTRACT_PATH_MAX + 64;
	char *p = rt_append(path, end, runtime_config.contract.dir);

	p = rt_append(p, end, "/p-");
	p = rt_append_u64(p, end, (uint64_t)runtime_config.pid);
	p = rt_append(p, end, "-");
	p = rt_append_u64(p, end, n);
	return rt_append(p, end, ".sec");
}

/* Opens p-PID-N.sec for the first free N, which becomes the image number. */
static int open_process_file(void)
{
	char path[CONTRACT_PATH_MAX + 64];

	for (uint32_t n = 0; n < 1000; n++) {
		if (!process_file_path(path, n))
			return -1;
		int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL |
			      O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			fd = rt_fd_above_limit(fd);
			runtime_config.image = n;
			memcpy(process_path, path, sizeof(process_path));
			rt_file_id_of(fd, &process_id);
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

const uint8_t *runtime_build_id(const struct dl_phdr_info *info, size_t *len)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		const uint8_t *end = p + ph->p_memsz;
		while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			size_t name_sz = (n->n_namesz + 3u) & ~3u;
			size_t desc_sz = (n->n_descsz + 3u) & ~3u;
			const uint8_t *name = p + sizeof(*n);
			const uint8_t *desc = name + name_sz;
			if (desc + desc_sz > end)
				break;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4)) {
				*len = n->n_descsz;
				return desc;
			}
			p = desc + desc_sz;
		}
	}
	*len = 0;
	return NULL;
}

/* OBJECT sections gathered for one write(): a start-up describes half a
 * dozen objects, each a system call before.  Whole sections only, as a
 * crash mid-write leaves a partial last one, which the seal drops. */
struct object_batch {
	uint8_t buf[8192];
	size_t len;
};

static void batch_flush(struct object_batch *batch)
{
	if (batch->len)
		process_write(batch->buf, batch->len);
	batch->len = 0;
}

static int write_object(struct dl_phdr_info *info, size_t size, void *data);

/* The loader's count of objects loaded so far (dlopen adds to it). */
static int count_loads(struct dl_phdr_info *info, size_t size, void *data)
{
	if (size >= offsetof(struct dl_phdr_info, dlpi_subs))
		*(unsigned long long *)data = info->dlpi_adds;
	return 1;	/* every entry carries the same counter */
}

/* That count when the loaded objects were last described. */
static unsigned long long described_loads;

/* Describes every loaded object (OBJECT sections). */
static void write_objects(void)
{
	struct object_batch batch;

	batch.len = 0;
	dl_iterate_phdr(count_loads, &described_loads);
	dl_iterate_phdr(write_object, &batch);
	batch_flush(&batch);
}

/* /proc/self/maps, kept open (struct rt_kept_file): the control thread
 * describes objects loaded while the program runs (dlopen) */
static struct rt_kept_file maps = { -1, { 0, 0 } };

/*
 * The file the kernel says is mapped at ADDR, from /proc/self/maps: an
 * absolute path, right whatever directory the program has moved to since
 * the loader opened the file.  Into BUF (SIZE bytes, which also bounds
 * the lines read); 0, or -1 when no file is mapped there or the table
 * cannot be read.  A deleted file's entry (" (deleted)") is no path to
 * open.
 */
static int mapped_file_path(uintptr_t addr, char *buf, size_t size)
{
	static char chunk[4096];
	size_t len = 0;
	off_t at = 0;
	int found = -1, skipping = 0;

	for (;;) {
		ssize_t n = rt_kept_file_read(&maps, chunk, sizeof(chunk), at);
		if (n <= 0)
			break;	/* the end, or the program closed it */
		at += n;
		for (ssize_t i = 0; i < n && found < 0; i++) {
			if (chunk[i] != '\n') {
				if (len + 1 < size)
					buf[len++] = chunk[i];
				else
					skipping = 1;	/* longer than BUF: not ours to use */
				continue;
			}
			buf[len] = '\0';
			/* "START-END PERMS OFFSET DEV INODE   PATH" */
			char *p;
			uintptr_t lo = strtoull(buf, &p, 16), hi = 0;
			if (*p == '-')
				hi = strtoull(p + 1, &p, 16);
			const char *path = strchr(p, '/');
			size_t plen = path ? strlen(path) : 0;
			if (!skipping && path && addr >= lo && addr < hi &&
			    !(plen > 10 && !strcmp(path + plen - 10, " (deleted)"))) {
				memmove(buf, path, plen + 1);
				found = 0;
			}
			len = 0;
			skipping = 0;
		}
		if (found == 0)
			break;
	}
	return found;
}

/*
 * INFO's name as a path the analyzer can open from any directory.  The
 * loader keeps the name it was given: a library found through
 * LD_LIBRARY_PATH=. or opened as dlopen("./plugin.so") has a name relative
 * to the working directory of that moment, which the program may have
 * left since (gawk's tests load ../extension/.libs/filefuncs.so, then
 * chdir), and an object loaded later is described later.  So the path is
 * the one the kernel gives the file mapped at the object's first segment;
 * failing that, the name joined to the working directory now.  So is an
 * absolute name with "." or ".." in it (gcc loads its linker plugin as
 * /usr/bin/../lib/bfd-plugins/...), which names the file too but not as
 * its package's list does.  Names without a slash (the vDSO's) are not
 * files and stay as they are.
 */
static const char *object_path(const struct dl_phdr_info *info, char *buf, size_t size)
{
	const char *name = info->dlpi_name;

	if (!strchr(name, '/') || (name[0] == '/' && !strstr(name, "/./") && !strstr(name, "/../")))
		return name;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			if (mapped_file_path(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr, buf, size) == 0)
				return buf;
			break;
		}
	if (name[0] == '/' || !getcwd(buf, size))
		return name;
	const char *rest = strncmp(name, "./", 2) == 0 ? name + 2 : name;
	char *end = rt_append(rt_append(buf + strlen(buf), buf + size, "/"), buf + size, rest);
	return end ? buf : name;
}

/* Builds INFO's OBJECT section behind what BATCH holds; -1 when it does
 * not fit there. */
static int object_section(const struct dl_phdr_info *info, struct object_batch *batch)
{
	struct sec_builder b = { batch->buf + batch->len, batch->buf + sizeof(batch->buf), 0 };
	/* static: this runs inside dl_iterate_phdr, which holds the loader's
	 * lock, so one call at a time, and a program thread that calls
	 * dlclose() need not have the room on its stack */
	static char absolute[CONTRACT_PATH_MAX];
	const char *path = info->dlpi_name && *info->dlpi_name ?
		object_path(info, absolute, sizeof(absolute)) : exe_path;
	size_t id_len;
	const void *id = runtime_build_id(info, &id_len);
	uint32_t nseg = 0;

	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD)
			nseg++;
	uint8_t *sec = sec_begin(&b, SECTION_OBJECT);
	sec_put_u32(&b, (uint32_t)runtime_config.pid);
	sec_put_u32(&b, runtime_config.image);
	sec_put_u64(&b, (uint64_t)info->dlpi_addr);
	sec_put_blob(&b, path, strlen(path));
	sec_put_blob(&b, id, id_len);
	sec_put_u32(&b, nseg);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		sec_put_u64(&b, ph->p_vaddr);
		sec_put_u64(&b, ph->p_memsz);
		sec_put_u32(&b, ph->p_flags);
		sec_put_u32(&b, 0);
	}
	sec_end(&b, sec);
	if (b.overflow)
		return -1;
	batch->len = (size_t)(b.p - batch->buf);
	return 0;
}

/* Appends INFO's OBJECT section to the batch DATA, flushing the batch
 * first when the section does not fit behind what it holds. */
static int write_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct object_batch *batch = data;

	(void)size;
	if (object_section(info, batch) != 0 && batch->len) {
		batch_flush(batch);
		object_section(info, batch);
	}
	return 0;
}

int process_write_start(pid_t parent)
{
	static uint8_t buf[16384];
	static char cmdline[8192];
	struct sec_builder b = { buf, buf + sizeof(buf), 0 };

	rt_close_own(process_fd, &process_id);
	process_fd = open_process_file();
	if (process_fd < 0) {
		rt_warn("cannot create the process file in the staging directory",
			strerror(errno));
		return -1;
	}
	rt_kept_file_open(&maps, "/proc/self/maps");
	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
	exe_path[n > 0 ? n : 0] = '\0';
	size_t cmd_len = rt_read_small_file("/proc/self/cmdline", cmdline, sizeof(cmdline));

	uint8_t *sec = sec_begin(&b, SECTION_PROCESS);
	sec_put_u32(&b, (uint32_t)runtime_config.pid);
	sec_put_u32(&b, runtime_config.image);
	sec_put_u32(&b, (uint32_t)parent);
	sec_put_u32(&b, runtime_config.contract.clock);
	struct clock_pair now = runtime_now_pair();
	sec_put_u64(&b, now.clock);
	sec_put_u64(&b, now.mono_ns);
	sec_put_u32(&b, runtime_config.hook_inner_x256);
	sec_put_u32(&b, runtime_config.hook_outer_x256);
	sec_put_blob(&b, exe_path, strlen(exe_path));
	sec_put_blob(&b, cmdline, cmd_len);
	sec_put_u32(&b, runtime_config.library_inner_x256);
	sec_put_u32(&b, runtime_config.library_outer_x256);
	sec_end(&b, sec);
	if (flush_section(&b, buf) != 0)
		return -1;
	write_objects();
	/* a forked child runs the trampolines it inherited */
	patch_write_moved_code();
	return 0;
}

int process_write_section(const uint8_t *p, size_t n)
{
	if (process_fd < 0)
		return -1;
	return process_write(p, n);
}

/* Builds in B the PROCESS_END of this pid's image IMAGE, ended for
 * REASON at NOW (the run's clock) and MONO (CLOCK_MONOTONIC ns). */
static void end_section(struct sec_builder *b, uint32_t image, uint32_t reason, uint64_t now,
			uint64_t mono)
{
	uint8_t *sec = sec_begin(b, SECTION_PROCESS_END);
	sec_put_u32(b, (uint32_t)runtime_config.pid);
	sec_put_u32(b, image);
	sec_put_u32(b, reason);
	sec_put_u32(b, 0);
	sec_put_u64(b, now);
	sec_put_u64(b, mono);
	sec_end(b, sec);
}

void process_write_end(uint32_t reason)
{
	uint8_t buf[64];
	struct sec_builder b = { buf, buf + sizeof(buf), 0 };

	if (process_fd < 0)
		return;
	struct clock_pair now = runtime_now_pair();
	end_section(&b, runtime_config.image, reason, now.clock, now.mono_ns);
	flush_section(&b, buf);
	/* when objects were loaded since they were last described (dlopen),
	 * all are described again; the reader keeps one description per
	 * load address */
	unsigned long long loads = 0;
	dl_iterate_phdr(count_loads, &loads);
	if (loads != described_loads)
		write_objects();
}

/* This process's image mark in the environment (common/contract.h), or
 * NULL when the environment has none. */
static char *image_mark;

/*
 * An exec replaces the program without a word to the runtime in it: the
 * image it starts, when recorded, says so.  The mark names the image
 * whose environment this was; with this pid it is the one exec replaced,
 * whose file gets its PROCESS_END, reason exec, at STARTED and
 * STARTED_MONO, the clocks as the runtime began here: the exec itself
 * came a dynamic loading earlier.  Other pids wrote the marks a fork
 * child does not get to update (a child of vfork or posix_spawn, which
 * has no image of its own until it execs) and are no business of ours.
 * An image that execs a program the runtime does not reach (a static
 * one) and that then exits keeps no end; one that execs it and then a
 * recorded program gets its end when the latter starts.
 */
void process_image_replaced(uint64_t started, uint64_t started_mono)
{
	char path[CONTRACT_PATH_MAX + 64];
	uint8_t buf[64];
	struct sec_builder b = { buf, buf + sizeof(buf), 0 };
	uint32_t pid, image;
	char *mark = secure_getenv(IMAGE_ENV);

	if (!mark || image_mark_parse(mark, &pid, &image) != 0)
		return;
	image_mark = mark;
	if (pid == (uint32_t)runtime_config.pid && image != runtime_config.image &&
	    process_file_path(path, image)) {
		/* no O_CREAT: an image with no file has nothing to end */
		int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			end_section(&b, image, PROCESS_END_EXEC, started, started_mono);
			write_all(fd, buf, (size_t)(b.p - buf));
			close(fd);
		}
	}
	process_image_mark();
}

void process_image_mark(void)
{
	if (image_mark)
		image_mark_write(image_mark, (uint32_t)runtime_config.pid, runtime_config.image);
}

/*
 * A program may exec with an environment of its own making rather than
 * environ: a shell copies its variables at its start and builds each
 * command's environment from them, so a child it forked would hand on the
 * mark of the shell, not its own, and the image it execs would not know
 * which one it replaced (its end never written: "did not exit
 * normally").  The mark in ENVP is made this image's, in place, as
 * environ's own string is.  Not in a child of vfork, which shares the
 * parent's memory and has no image of its own until it execs.
 */
void process_image_mark_env(char *const envp[])
{
	static const char name[] = IMAGE_ENV "=";
	uint32_t pid, image;

	if (!image_mark || !envp || getpid() != runtime_config.pid)
		return;
	for (char *const *e = envp; *e; e++) {
		if (strncmp(*e, name, sizeof(name) - 1))
			continue;
		char *value = *e + sizeof(name) - 1;
		if (value != image_mark && image_mark_parse(value, &pid, &image) == 0)
			image_mark_write(value, (uint32_t)runtime_config.pid, runtime_config.image);
	}
}

int process_sched_times(struct sched_times *out)
{
	char text[128];
	size_t n = rt_read_small_file("/proc/thread-self/schedstat", text, sizeof(text) - 1);
	char *p = text, *end;

	text[n] = '\0';
	out->cpu_ns = strtoull(p, &end, 10);
	if (end == p)
		return -1;
	p = end;
	out->wait_ns = strtoull(p, &end, 10);
	return end == p ? -1 : 0;
}

void process_write_calibration(struct hook_cost_x256 hooks, struct hook_cost_x256 library,
			       int measured, struct sched_times ran,
			       const struct hook_sample_counts *samples)
{
	uint8_t buf[192];
	struct sec_builder b = { buf, buf + sizeof(buf), 0 };

	if (process_fd < 0)
		return;
	uint8_t *sec = sec_begin(&b, SECTION_CALIBRATION);
	sec_put_u32(&b, (uint32_t)runtime_config.pid);
	sec_put_u32(&b, runtime_config.image);
	sec_put_u32(&b, hooks.inner);
	sec_put_u32(&b, hooks.outer);
	sec_put_u64(&b, ran.cpu_ns);
	sec_put_u64(&b, ran.wait_ns);
	sec_put_u32(&b, (ran.left_out ? CALIBRATION_WAITS_LEFT_OUT : 0) |
			    (measured ? 0 : CALIBRATION_START_ONLY));
	sec_put_u32(&b, 0);
	sec_put_u64(&b, ran.left_out_ns);
	sec_put_u64(&b, samples->taken);
	sec_put_u64(&b, samples->inner);
	sec_put_u64(&b, samples->outer);
	sec_put_u64(&b, samples->unsure);
	sec_put_u64(&b, samples->period_ns);
	sec_put_u32(&b, runtime_config.library_inner_x256);
	sec_put_u32(&b, runtime_config.library_outer_x256);
	sec_put_u32(&b, library.inner);
	sec_put_u32(&b, library.outer);
	sec_put_u64(&b, samples->library_calls);
	sec_put_u64(&b, samples->library_inner);
	sec_put_u64(&b, samples->library_outer);
	sec_put_u64(&b, samples->library_unsure);
	sec_end(&b, sec);
	flush_section(&b, buf);
}

/*
 * The control thread walks the loaded objects at any moment of the
 * program's, and dl_iterate_phdr holds the loader's lock meanwhile.  A
 * fork() in that moment would give the child that lock taken by a thread
 * it does not have, and the child's first walk (the runtime's own,
 * describing the child; or the program's: an exception's unwinder, a
 * dlopen) would wait for ever -- glibc resets that lock in the child
 * only for its own dlopen.  So fork() waits for a refresh to end, and no
 * refresh begins until the fork is done (pthread_atfork, init.c).
 */
static pthread_mutex_t refresh_lock = PTHREAD_MUTEX_INITIALIZER;

void process_fork_prepare(void)
{
	pthread_mutex_lock(&refresh_lock);
}

void process_fork_parent(void)
{
	pthread_mutex_unlock(&refresh_lock);
}

/* The child has one thread, the one that forked: the lock is its again. */
void process_fork_child(void)
{
	pthread_mutex_init(&refresh_lock, NULL);
}

void process_objects_refresh(void)
{
	unsigned long long loads = 0;

	if (process_fd < 0)
		return;
	pthread_mutex_lock(&refresh_lock);
	dl_iterate_phdr(count_loads, &loads);
	if (loads != described_loads) {
		write_objects();
		sampler_objects_loaded();
	}
	pthread_mutex_unlock(&refresh_lock);
}

/*
 * The runtime's dlclose: describes every loaded object first, while the
 * one about to go is still there, or the samples taken in it would fall
 * outside any known object.  (dlopen is not wrapped: glibc finds the
 * caller's RUNPATH and namespace from its return address, which a wrapper
 * would replace with the runtime's.)
 */
EXPORT int dlclose(void *handle)
{
	static int (*real)(void *);

	if (!real) {
		real = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
		if (!real)
			return -1;
	}
	if (runtime_config.active && process_fd >= 0) {
		int saved = errno;
		/* another thread may fork meanwhile, as during a refresh */
		pthread_mutex_lock(&refresh_lock);
		write_objects();
		pthread_mutex_unlock(&refresh_lock);
		errno = saved;
	}
	return real(handle);
}
