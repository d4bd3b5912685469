#include "symbols/debug_files.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <unistd.h>

#include "readfile.h"
#include "xalloc.h"

/* Separate debug info is looked up by build ID and .gnu_debuglink under
 * the default path (and through debuginfod when the user set
 * DEBUGINFOD_URLS, as eu-addr2line and perf do). */
static char *debuginfo_path;
const Dwfl_Callbacks debug_files_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static int has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB && sh.sh_size)
			return 1;
	return 0;
}

enum object_symbols object_symbols(const char *path, char **debug_file)
{
	enum object_symbols result = OBJECT_UNREADABLE;
	GElf_Addr bias;

	if (debug_file)
		*debug_file = NULL;
	/* a regular file only: a recording may name anything */
	int fd = open_regular(path);
	if (fd < 0)
		return OBJECT_UNREADABLE;
	Dwfl *dwfl = dwfl_begin(&debug_files_callbacks);
	if (!dwfl) {
		close(fd);
		return OBJECT_UNREADABLE;
	}
	dwfl_report_begin(dwfl);
	Dwfl_Module *mod = dwfl_report_elf(dwfl, path, path, fd, 0, false);
	if (!mod)
		close(fd);
	if (!mod || dwfl_report_end(dwfl, NULL, NULL) != 0)
		goto out;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	if (!elf)
		goto out;
	if (has_symtab(elf)) {
		result = OBJECT_SYMTAB;
		goto out;
	}
	/* the symbol table's search looks for the separate debug file */
	dwfl_module_getsymtab(mod);
	const char *debug = NULL;
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
	if (debug) {
		result = OBJECT_DEBUG_FILE;
		if (debug_file)
			*debug_file = xstrdup(debug);
	} else {
		result = OBJECT_DYNAMIC_ONLY;
	}
out:
	dwfl_end(dwfl);
	return result;
}
