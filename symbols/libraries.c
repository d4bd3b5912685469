#include "symbols/libraries.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "readfile.h"
#include "xalloc.h"

/* PROG's PT_INTERP, malloc'd, or NULL. */
static char *interpreter(const char *prog)
{
	int fd = open_regular(prog);
	char *interp = NULL;

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	size_t nph;
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph && !interp; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_INTERP ||
			    !ph.p_filesz || ph.p_filesz > 4096)
				continue;
			Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
							   ELF_T_BYTE);
			if (d && d->d_buf)
				interp = xstrndup(d->d_buf, d->d_size);
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return interp;
}

char **program_libraries(const char *prog, size_t *n)
{
	char **libs = NULL;
	size_t alloc = 0;
	char *interp = interpreter(prog);
	int pipefd[2];

	*n = 0;
	if (!interp || pipe(pipefd) != 0) {
		free(interp);
		return NULL;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(pipefd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(pipefd[0]);
		execl(interp, interp, "--list", prog, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	FILE *in = pid > 0 ? fdopen(pipefd[0], "r") : NULL;
	char line[4096];
	while (in && fgets(line, sizeof(line), in)) {
		/* "\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)" */
		char *arrow = strstr(line, "=> /");
		char *paren = arrow ? strstr(arrow, " (0x") : NULL;
		if (!paren)
			continue;
		ALLOC_GROW(libs, *n + 1, alloc);
		libs[(*n)++] = xstrndup(arrow + 3, (size_t)(paren - arrow - 3));
	}
	if (in)
		fclose(in);
	else
		close(pipefd[0]);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	free(interp);
	return libs;
}

int library_name_matches(const char *path, const char *name)
{
	const char *base = strrchr(path, '/');
	size_t len = strlen(name);

	if (!strcmp(path, name))
		return 1;
	base = base ? base + 1 : path;
	return !strncmp(base, name, len) &&
	       (base[len] == '\0' || base[len] == '.' || base[len] == '-');
}

static char *find_in(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	if (!d)
		return NULL;
	while (!found && (e = readdir(d)))
		if (strstr(e->d_name, ".so") && library_name_matches(e->d_name, name))
			found = xasprintf("%s/%s", dir, e->d_name);
	closedir(d);
	return found;
}

char *library_find(const char *name)
{
	static const char *const system_dirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/usr/local/lib",
		"/lib64", "/usr/lib64", "/lib", "/usr/lib",
	};
	const char *env = getenv("LD_LIBRARY_PATH");
	char *found = NULL;

	if (strchr(name, '/'))
		return access(name, R_OK) == 0 ? xstrdup(name) : NULL;
	if (env && *env) {
		char *copy = xstrdup(env), *save = NULL;
		for (char *dir = strtok_r(copy, ":", &save); dir && !found;
		     dir = strtok_r(NULL, ":", &save))
			found = find_in(dir, name);
		free(copy);
	}
	for (size_t i = 0; !found && i < sizeof(system_dirs) / sizeof(*system_dirs); i++)
		found = find_in(system_dirs[i], name);
	return found;
}
