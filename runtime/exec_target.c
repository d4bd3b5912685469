/*
 * Whether the program an exec starts will be recorded, told before the
 * exec.  A statically linked program has no loader to bring the runtime
 * in; the loader ignores LD_PRELOAD in a setuid or setgid program that
 * changes the user or group; an environment without callscope's settings
 * (`env -i`, a program that builds its own) leaves the runtime out.  Such
 * a program's own time is in no profile, and the recording alone cannot
 * say so (its process just ends): one line on stderr does, where perf,
 * following the same command, would have counted it.  What a static
 * program starts in turn, or runs as valgrind runs its guest, takes the
 * runtime from the environment and is recorded.  A file that is not
 * there, or not an ELF file (a script: its interpreter is what runs),
 * says nothing.  Only calls a vfork child may make: open, pread, fstat,
 * access, getenv, close, and rt_warn's write.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "contract.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether ENVP carries NAME=... */
static int has_variable(char *const envp[], const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return 1;
	return 0;
}

/* Why the ELF file FD cannot take the runtime, or NULL. */
static const char *file_refuses(int fd)
{
	struct stat st;
	Elf64_Ehdr eh;

	if (fstat(fd, &st) != 0)
		return NULL;
	if (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
	    ((st.st_mode & S_ISGID) && st.st_gid != getegid()))
		return "it is setuid or setgid, and the loader ignores LD_PRELOAD there";
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 256)
		return NULL;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			return NULL;
		if (ph.p_type == PT_INTERP)
			return NULL;
	}
	return "it is statically linked, with no loader to bring callscope's runtime in";
}

/* FILE as execvp() finds it, into BUF: the first executable file of that
 * name along $PATH (an empty entry is the working directory); FILE itself
 * when it has a slash.  NULL when there is none. */
static const char *search_path(const char *file, char *buf, size_t size)
{
	if (strchr(file, '/'))
		return file;
	const char *dirs = getenv("PATH");
	if (!dirs)
		dirs = "/bin:/usr/bin";
	for (;;) {
		const char *colon = strchr(dirs, ':');
		size_t len = colon ? (size_t)(colon - dirs) : strlen(dirs);
		char *p = buf;
		if (len) {
			p = len < size ? buf + len : NULL;
			if (p) {
				memcpy(buf, dirs, len);
				p = rt_append(p, buf + size, "/");
			}
		}
		p = rt_append(p, buf + size, file);
		if (p && access(buf, X_OK) == 0)
			return buf;
		if (!colon)
			return NULL;
		dirs = colon + 1;
	}
}

void exec_target_check(const char *file, int search, char *const envp[])
{
	char found[PATH_MAX];
	const char *why = NULL;

	if (!runtime_config.active || !file)
		return;
	const char *path = search ? search_path(file, found, sizeof(found)) : file;
	if (!path)
		return;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	why = file_refuses(fd);
	close(fd);
	if (!why && (!has_variable(envp, CONTRACT_ENV) || !has_variable(envp, "LD_PRELOAD")))
		why = "its environment does not carry callscope's settings (env -i?)";
	if (!why)
		return;
	char msg[PATH_MAX + 64];
	char *p = rt_append(msg, msg + sizeof(msg), "process ");
	p = rt_append_u64(p, msg + sizeof(msg), (uint64_t)getpid());
	p = rt_append(p, msg + sizeof(msg), " execs '");
	p = rt_append(p, msg + sizeof(msg), path);
	p = rt_append(p, msg + sizeof(msg), "', whose own time is not recorded");
	rt_warn(p ? msg : "a program exec'd is not recorded", why);
}
