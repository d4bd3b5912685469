#include "load/unhooked_builds.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbols/instrumented.h"
#include "xalloc.h"

/* An object worth a search: this many percent of the samples or more. */
#define SEARCH_PCT 5

/* A file in DIR named STEM... (libbz2.so...) with hooks, not SELF. */
static char *hooked_copy_in(const char *dir, const char *stem, const char *self)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;
	char *self_real = realpath(self, NULL);

	if (!d) {
		free(self_real);
		return NULL;
	}
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, stem, strlen(stem)))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		char *real = realpath(path, NULL);
		struct stat st;
		struct program_hooks h;
		if (real && (!self_real || strcmp(real, self_real)) && stat(real, &st) == 0 &&
		    S_ISREG(st.st_mode) && program_hooks_probe(real, &h) == 0 && h.kinds)
			found = xstrdup(real);
		free(real);
		free(path);
	}
	closedir(d);
	free(self_real);
	return found;
}

void unhooked_find_builds(struct unhooked *u, const struct data_file *df)
{
	char *dirs[2] = { NULL, NULL };

	if (df->nprocesses && df->processes[0].exe && strrchr(df->processes[0].exe, '/'))
		dirs[0] = xstrndup(df->processes[0].exe,
				   (size_t)(strrchr(df->processes[0].exe, '/') - df->processes[0].exe));
	if (df->session.cwd_len)
		dirs[1] = xstrndup(df->session.cwd, df->session.cwd_len);
	for (size_t i = 0; i < u->nobjects; i++) {
		struct unhooked_object *o = &u->objects[i];
		const char *base = strrchr(o->object, '/');
		const char *so = base ? strstr(base, ".so") : NULL;
		if (!so || (o->seen + o->unseen) * 100 < u->samples * SEARCH_PCT)
			continue;
		char *stem = xstrndup(base + 1, (size_t)(so + 3 - base - 1));
		for (int k = 0; k < 2 && !o->hooked_build; k++)
			if (dirs[k])
				o->hooked_build = hooked_copy_in(dirs[k], stem, o->object);
		free(stem);
	}
	free(dirs[0]);
	free(dirs[1]);
}
